import Geodesy
import Guidance

/// `back`: the trail walked in reverse, as a route. Pure.
enum BackRoute {
    /// The trail's points (oldest first) as the waypoints that lead back along it: newest first,
    /// simplified as a GPX track is (``TrackSimplifier``), without the newest point (where the
    /// wearer stands), the last called "start of the trail".
    static func waypoints(from trail: [Coordinate]) -> [SavedDestination] {
        let reversed = Array(trail.reversed())
        var points = TrackSimplifier.simplify(reversed).map { reversed[$0] }
        if points.count > 1 { points.removeFirst() }
        return points.enumerated().map { index, point in
            SavedDestination(coordinate: point, name: index == points.count - 1 ? "start of the trail" : nil)
        }
    }
}
