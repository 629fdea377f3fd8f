import ControlProtocol
import GPX
import Geodesy
import Guidance
import TextFormats

/// A GPX file as a route for the daemon (`route load`): its first route (`rte`), else its
/// first track simplified to waypoints (``TrackSimplifier``), else its waypoints (`wpt`) in
/// file order: what map apps export for each of "a planned route", "a line drawn or walked"
/// and "a list of stops". A track wins over waypoints because in real files that have both
/// (a recorded hike with two points of interest, from gpxpy's test files) the waypoints mark
/// places along the way, not the way. Pure.
public enum RouteImport {
    /// What was taken from the file.
    public struct Route: Equatable {
        public var name: String?
        public var waypoints: [DestinationReport]
        /// Where the waypoints came from, for the wearer: `route "Loop" (12 points)`.
        public var source: String
    }

    /// Why a file gives no route.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case empty
        case tooMany(Int)

        public var description: String {
            switch self {
            case .empty: "the file has no route, waypoint or track point"
            case .tooMany(let count):
                "the route has \(count) waypoints; at most \(ControlRequest.maximumRouteWaypoints) can be followed"
            }
        }
    }

    public static func route(from document: GPXDocument) throws(Failure) -> Route {
        if let route = document.routes.first(where: { !$0.points.isEmpty }) {
            return try make(route.name ?? document.name, route.points, source: "route \(quoted(route.name))\(route.points.count) points")
        }
        if let track = document.tracks.first(where: { $0.segments.contains { !$0.isEmpty } }) {
            let points = track.segments.flatMap { $0 }
            let kept = TrackSimplifier.simplify(
                points.map { Coordinate(uncheckedLatitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees) })
            return try make(
                track.name ?? document.name, kept.map { points[$0] },
                source: "track \(quoted(track.name))\(points.count) points, simplified to \(kept.count)")
        }
        if !document.waypoints.isEmpty {
            return try make(document.name, document.waypoints, source: "\(document.waypoints.count) waypoints")
        }
        throw .empty
    }

    private static func quoted(_ name: String?) -> String { name.map { "\"\($0)\" " } ?? "" }

    private static func make(_ name: String?, _ points: [GPXPoint], source: String) throws(Failure) -> Route {
        guard points.count <= ControlRequest.maximumRouteWaypoints else { throw .tooMany(points.count) }
        return Route(
            name: cleanName(name),
            waypoints: points.map {
                DestinationReport(latitude: $0.latitudeDegrees, longitude: $0.longitudeDegrees, name: cleanName($0.name))
            },
            source: source)
    }

    /// A name from a file, made one the protocol accepts: control and direction characters
    /// dropped, cut to ``PlaceName/maximumLength`` characters; nil if nothing is left.
    public static func cleanName(_ name: String?) -> String? {
        guard let name else { return nil }
        var kept = String.UnicodeScalarView()
        for scalar in name.unicodeScalars where !PlaceName.isUnprintable(scalar) { kept.append(scalar) }
        let cut = String(String(kept).prefix(PlaceName.maximumLength))
        return try? PlaceName.validated(cut)
    }
}
