/// The reply to `place mark`: the place as stored, and how sure the daemon is of it.
///
/// ```
/// {"class":"PLACE","place":{"lat":…,"lon":…,"name":"Car"},"error":2.4,"fixes":5}
/// ```
public struct PlaceMarkReport: Sendable, Hashable {
    /// `place`: where it was marked, with its name (and radius, if given).
    public var place: DestinationReport
    /// `error`: the radius, metres, within which the true place lies with about 95 %
    /// confidence.
    public var errorMeters: Double
    /// `fixes`: how many fixes were averaged.
    public var fixes: Int

    /// A report from its parts.
    public init(place: DestinationReport, errorMeters: Double, fixes: Int) {
        self.place = place
        self.errorMeters = errorMeters
        self.fixes = fixes
    }
}

extension PlaceMarkReport: Codable {
    enum CodingKeys: String, CodingKey { case messageClass = "class", place, error, fixes }

    /// Writes the whole `PLACE` message, `"class":"PLACE"` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.placeMarked.rawValue, forKey: .messageClass)
        try container.encode(place, forKey: .place)
        try container.encode(WireNumber(errorMeters), forKey: .error)
        try container.encode(fixes, forKey: .fixes)
    }

    /// Reads a `PLACE` message.
    /// - Throws: `DecodingError` when a field is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            place: try container.decode(DestinationReport.self, forKey: .place),
            errorMeters: try container.decode(Double.self, forKey: .error),
            fixes: try container.decode(Int.self, forKey: .fixes))
    }
}
