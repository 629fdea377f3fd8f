/// Where a route stands: `route` in `STATUS` and `ROUTE` replies, or null when none is loaded.
///
/// ```
/// {"name":"Morning loop","waypoint":2,"count":5,"target":{"lat":…,"lon":…,"name":"Gate"},
///  "remaining":1234.5,"finished":false}
/// ```
public struct RouteReport: Sendable, Hashable {
    /// `name`: the route's name, or null.
    public var name: String?
    /// `waypoint`: the waypoint being walked to, from 1; `count` once finished.
    public var waypoint: Int
    /// `count`: how many waypoints the route has.
    public var count: Int
    /// `target`: the waypoint being walked to (the last one once finished).
    public var target: DestinationReport
    /// `remaining`: metres from the latest fix to the target and on along the rest of the
    /// route; null without a fix.
    public var remainingMeters: Double?
    /// `finished`: whether the last waypoint has been reached.
    public var isFinished: Bool
    /// `walk`: the walk planned over the streets this route follows, or absent.
    public var walk: WalkReport?

    /// A report from its parts.
    public init(
        name: String?, waypoint: Int, count: Int, target: DestinationReport, remainingMeters: Double?, isFinished: Bool,
        walk: WalkReport? = nil
    ) {
        self.walk = walk
        self.name = name
        self.waypoint = waypoint
        self.count = count
        self.target = target
        self.remainingMeters = remainingMeters
        self.isFinished = isFinished
    }
}

extension RouteReport: Codable {
    enum CodingKeys: String, CodingKey { case name, waypoint, count, target, remaining, finished, walk }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(waypoint, forKey: .waypoint)
        try container.encode(count, forKey: .count)
        try container.encode(target, forKey: .target)
        try container.encode(WireNumber(remainingMeters), forKey: .remaining)
        try container.encode(isFinished, forKey: .finished)
        try container.encodeIfPresent(walk, forKey: .walk)
    }

    /// Reads `route`; `waypoint`, `count` and `target` are required, `finished` reads as false
    /// when absent.
    /// - Throws: `DecodingError` when a required field is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            waypoint: try container.decode(Int.self, forKey: .waypoint),
            count: try container.decode(Int.self, forKey: .count),
            target: try container.decode(DestinationReport.self, forKey: .target),
            remainingMeters: try container.decodeIfPresent(Double.self, forKey: .remaining),
            isFinished: try container.decodeIfPresent(Bool.self, forKey: .finished) ?? false,
            walk: try container.decodeIfPresent(WalkReport.self, forKey: .walk))
    }
}
