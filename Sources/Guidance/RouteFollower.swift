import Geodesy

/// Which waypoint of a route the wearer is walking to, and when to move on to the next (issue
/// 19). A value fed fixes, returning what happened; pure, like ``Navigator``, which guides to
/// ``current`` and is told of each change.
///
/// A waypoint is done when it is **reached**: within its radius (or 2·eph, if larger) on
/// ``Settings/confirmingFixes`` consecutive fixes, as the navigator judges arrival. It is also
/// done when it is **clearly passed**: the wearer, beyond its radius, is ahead of it along the
/// next leg and closer to that leg than to the waypoint by half (within 30° of the leg's
/// direction as seen from the waypoint), on as many consecutive fixes, as when a corner is cut.
/// Either way the route moves on and never moves back by itself, so a fix wandering in and out
/// of a radius cannot make it flicker: only ``skip(by:)`` and ``reverse()`` go back.
public struct RouteFollower: Sendable, Hashable {
    /// One point of the route.
    public struct Waypoint: Sendable, Hashable {
        /// Where it is.
        public var coordinate: Coordinate
        /// Its name, if the route gave one.
        public var name: String?
        /// Its own reaching radius, metres, if it has one; else ``Settings/arrivalRadiusMeters``.
        public var radiusMeters: Double?

        /// A waypoint from its parts.
        public init(coordinate: Coordinate, name: String? = nil, radiusMeters: Double? = nil) {
            self.coordinate = coordinate
            self.name = name
            self.radiusMeters = radiusMeters
        }
    }

    /// What a fix did to the route.
    public enum Event: Sendable, Hashable {
        /// Waypoint `index` was reached; the route goes on to the next.
        case reached(Int)
        /// Waypoint `index` was passed without being reached; the route goes on to the next.
        case passed(Int)
        /// The last waypoint was reached: the route is done.
        case finished
    }

    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// A waypoint's radius unless it has its own, metres. Default 15, the navigator's.
        public var arrivalRadiusMeters = 15.0
        /// Consecutive fixes that must agree before a waypoint counts as reached or passed.
        /// Default 2, the navigator's for arrival.
        public var confirmingFixes = 2

        /// The defaults.
        public init() {}
    }

    /// The waypoints, in the order they are walked.
    public private(set) var waypoints: [Waypoint]
    /// The waypoint being walked to, from 0; `waypoints.count` once the route is finished.
    public private(set) var index: Int
    /// The settings.
    public let settings: Settings
    private var reachedFixes = 0
    private var passedFixes = 0
    /// From each waypoint to the last along the route, metres: solved once, not per `STATUS`.
    private var metersToEnd: [Double] = []

    /// A route, walked from waypoint `index` (0 unless resuming).
    public init(waypoints: [Waypoint], index: Int = 0, settings: Settings = Settings()) {
        self.waypoints = waypoints
        self.index = min(max(index, 0), waypoints.count)
        self.settings = settings
        measure()
    }

    /// The waypoint being walked to, or nil once the route is finished (or empty).
    public var current: Waypoint? { index < waypoints.count ? waypoints[index] : nil }

    /// Whether the last waypoint has been reached.
    public var isFinished: Bool { index >= waypoints.count }

    /// Takes a fix and says whether it finished a waypoint.
    /// - Parameters:
    ///   - position: The fix's position.
    ///   - errorMeters: Its horizontal error (eph), if known.
    /// - Returns: The event, or nil when the route goes on as it was.
    public mutating func update(position: Coordinate, errorMeters: Double?) -> Event? {
        guard let target = current else { return nil }
        let radius = max(target.radiusMeters ?? settings.arrivalRadiusMeters, 2 * (errorMeters ?? 0))
        let distance = Self.distanceMeters(position, target.coordinate)
        reachedFixes = distance <= radius ? reachedFixes + 1 : 0
        let isLast = index + 1 >= waypoints.count
        passedFixes = !isLast && isPast(position, distance: distance, radius: radius) ? passedFixes + 1 : 0
        let done = index
        if reachedFixes >= settings.confirmingFixes {
            advance(to: index + 1)
            return isLast ? .finished : .reached(done)
        }
        if passedFixes >= settings.confirmingFixes {
            advance(to: index + 1)
            return .passed(done)
        }
        return nil
    }

    /// Moves the target `steps` waypoints on (negative: back), within the route.
    /// - Returns: Whether the target changed.
    @discardableResult
    public mutating func skip(by steps: Int) -> Bool {
        let target = min(max(index + steps, 0), max(waypoints.count - 1, 0))
        guard target != index, !waypoints.isEmpty else { return false }
        advance(to: target)
        return true
    }

    /// Walks the route the other way: the waypoints reversed, and the target the waypoint the
    /// wearer last left behind (the start of the leg being walked), or the last one of a route
    /// not yet begun.
    public mutating func reverse() {
        guard !waypoints.isEmpty else { return }
        let behind = index - 1
        waypoints.reverse()
        measure()
        advance(to: behind < 0 ? 0 : min(waypoints.count - 1 - behind, waypoints.count - 1))
    }

    /// From `position` to the current waypoint and then along the rest of the route, metres.
    public func remainingMeters(from position: Coordinate) -> Double {
        guard let target = current else { return 0 }
        return Self.distanceMeters(position, target.coordinate) + metersToEnd[index]
    }

    private mutating func measure() {
        metersToEnd = Array(repeating: 0, count: waypoints.count)
        for position in waypoints.indices.dropLast().reversed() {
            metersToEnd[position] =
                metersToEnd[position + 1] + Self.distanceMeters(waypoints[position].coordinate, waypoints[position + 1].coordinate)
        }
    }

    private mutating func advance(to newIndex: Int) {
        index = newIndex
        reachedFixes = 0
        passedFixes = 0
    }

    /// Whether `position`, `distance` metres from the current waypoint, has clearly passed it:
    /// beyond `radius`, ahead along the next leg, within 30° of it as seen from the waypoint.
    private func isPast(_ position: Coordinate, distance: Double, radius: Double) -> Bool {
        guard distance > radius, index + 1 < waypoints.count else { return false }
        let plane = LocalPlane(origin: waypoints[index].coordinate)
        let leg = plane.offset(of: waypoints[index + 1].coordinate)
        let offset = plane.offset(of: position)
        let legLength = (leg.east * leg.east + leg.north * leg.north).squareRoot()
        guard legLength > 0 else { return false }
        let along = (offset.east * leg.east + offset.north * leg.north) / legLength
        let across = abs(offset.east * leg.north - offset.north * leg.east) / legLength
        // Closer to the leg than to the waypoint by half: across ≤ distance / 2, that is
        // across ≤ along / √3.
        return along > radius && 3 * across * across <= along * along
    }

    private static func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        Geodesic.wgs84.inverse(from: a, to: b).distanceMeters
    }
}
