import ControlProtocol

/// A route as the daemon keeps it: its waypoints in the order they are walked, and how far the
/// wearer has come, so that a restart resumes at the same leg.
public struct SavedRoute: Sendable, Hashable {
    /// The most waypoints a route may have: the protocol's.
    public static let maximumWaypoints = ControlRequest.maximumRouteWaypoints

    /// The route's name (the GPX file's), if it has one.
    public var name: String?
    /// The waypoints, at least one and at most ``maximumWaypoints``.
    public var waypoints: [SavedDestination]
    /// The waypoint being walked to, from 0; `waypoints.count` once the last was reached.
    public var index: Int

    /// A route from its parts.
    public init(name: String?, waypoints: [SavedDestination], index: Int = 0) {
        self.name = name
        self.waypoints = waypoints
        self.index = index
    }
}
