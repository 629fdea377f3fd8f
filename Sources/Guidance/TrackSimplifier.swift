import Geodesy

/// A walked or drawn line (a GPX track, a breadcrumb trail) as few waypoints as a route needs:
/// pure.
///
/// Ramer–Douglas–Peucker keeps the points that bend the line by more than
/// ``Settings/toleranceMeters``; then points closer than ``Settings/minimumSpacingMeters`` to
/// the last kept one are dropped (the route follower's 15 m radius would take two at once), the
/// last point always kept. If that still leaves more than ``Settings/maximumPoints``, the
/// tolerance doubles until it does not.
public enum TrackSimplifier {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// How far the simplified line may stray from the original, metres. Default 10: within
        /// a GPS fix's error and a pavement's width.
        public var toleranceMeters = 10.0
        /// Waypoints closer than this are merged, metres. Default 20.
        public var minimumSpacingMeters = 20.0
        /// The most waypoints kept. Default 1000, what a route may have.
        public var maximumPoints = 1000

        /// The defaults.
        public init() {}
    }

    /// The indices of `points` to keep, in order; the first and last are always kept.
    public static func simplify(_ points: [Coordinate], settings: Settings = Settings()) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        let plane = LocalPlane(origin: points[0])
        let flat = points.map { plane.offset(of: $0) }
        var tolerance = settings.toleranceMeters
        while true {
            let kept = spaced(douglasPeucker(flat, tolerance: tolerance), flat, spacing: settings.minimumSpacingMeters)
            if kept.count <= max(settings.maximumPoints, 2) { return kept }
            tolerance *= 2
        }
    }

    /// RDP without recursion (a 100 000-point track must not overflow the stack): the indices
    /// kept, the first and last included. Also ``WalkPlan``'s bends.
    static func douglasPeucker(_ points: [(east: Double, north: Double)], tolerance: Double) -> [Int] {
        var keep = Array(repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var spans = [(0, points.count - 1)]
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let distance = distanceFromSegment(points[index], points[first], points[last])
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                spans.append((first, farthest))
                spans.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    private static func spaced(_ kept: [Int], _ points: [(east: Double, north: Double)], spacing: Double) -> [Int] {
        var result = [kept[0]]
        for index in kept.dropFirst() {
            let last = points[result[result.count - 1]]
            let point = points[index]
            let (de, dn) = (point.east - last.east, point.north - last.north)
            if (de * de + dn * dn).squareRoot() >= spacing {
                result.append(index)
            } else if index == kept[kept.count - 1] {
                // The end matters more than the point before it.
                if result.count > 1 { result[result.count - 1] = index } else { result.append(index) }
            }
        }
        return result
    }

    /// The distance from `point` to the segment from `start` to `end`, metres.
    static func distanceFromSegment(
        _ point: (east: Double, north: Double), _ start: (east: Double, north: Double), _ end: (east: Double, north: Double)
    ) -> Double {
        let (dx, dy) = (end.east - start.east, end.north - start.north)
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? ((point.east - start.east) * dx + (point.north - start.north) * dy) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let (ex, ey) = (start.east + t * dx - point.east, start.north + t * dy - point.north)
        return (ex * ex + ey * ey).squareRoot()
    }
}
