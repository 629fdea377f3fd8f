/// A GPX `rte`: waypoints to be visited in order.
public struct GPXRoute: Sendable, Hashable {
    /// `name`.
    public var name: String?
    /// `rtept`, in order.
    public var points: [GPXPoint]

    /// A route from its parts.
    public init(name: String? = nil, points: [GPXPoint] = []) {
        self.name = name
        self.points = points
    }
}
