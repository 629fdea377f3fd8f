/// What a GPX file holds, as far as a walker's guide needs it: its waypoints, routes and
/// tracks. Extensions, links, descriptions and the like are read past.
public struct GPXDocument: Sendable, Hashable {
    /// `version`: `1.1` or `1.0`.
    public var version: String
    /// The file's name: `metadata/name` (1.1) or `name` (1.0), if any.
    public var name: String?
    /// `wpt`, in order.
    public var waypoints: [GPXPoint]
    /// `rte`, in order.
    public var routes: [GPXRoute]
    /// `trk`, in order.
    public var tracks: [GPXTrack]

    /// A document from its parts.
    public init(
        version: String = "1.1", name: String? = nil, waypoints: [GPXPoint] = [], routes: [GPXRoute] = [],
        tracks: [GPXTrack] = []
    ) {
        self.version = version
        self.name = name
        self.waypoints = waypoints
        self.routes = routes
        self.tracks = tracks
    }

    /// How many points it holds in all.
    public var pointCount: Int {
        waypoints.count + routes.reduce(0) { $0 + $1.points.count }
            + tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.count } }
    }
}
