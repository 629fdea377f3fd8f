import Glibc
import Geodesy
import Testing
import TestSupport

@testable import Guidance

/// Following a route waypoint by waypoint (issue 19), on simulated walks: what a walker's fixes
/// do can only be simulated here (the end-to-end test on the daemon comes with the protocol).
@Suite("Route following", .timeLimit(.minutes(5)))
struct RouteFollowerTests {
    /// The start, by the Eiffel Tower.
    static let origin = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
    /// The mean Earth radius, metres (IUGG), for the test's own flat-Earth offsets.
    static let earthRadiusMeters = 6_371_008.8

    /// A point `east` and `north` metres from the origin (on the tangent plane: exact enough at
    /// these distances for a test that allows metres).
    static func point(east: Double, north: Double) -> Coordinate {
        let radiansPerDegree = Double.pi / 180
        return Coordinate(
            uncheckedLatitudeDegrees: origin.latitudeDegrees + north / Self.earthRadiusMeters / radiansPerDegree,
            longitudeDegrees: origin.longitudeDegrees + east
                / (Self.earthRadiusMeters * cos(origin.latitudeDegrees * radiansPerDegree)) / radiansPerDegree)
    }

    /// Five waypoints, 120 m apart, turning left and right: a zigzag walk.
    static let corners: [(Double, Double)] = [(0, 120), (120, 120), (120, 240), (240, 240), (240, 360)]
    static var route: [RouteFollower.Waypoint] {
        corners.map { RouteFollower.Waypoint(coordinate: point(east: $0.0, north: $0.1)) }
    }

    /// Walks straight from `from` towards the follower's current target at 1.4 m/s, a fix a
    /// second with `noise` metres of error on each axis, until the route finishes or `limit`
    /// fixes; returns the events.
    static func walk(
        _ follower: inout RouteFollower, from start: (Double, Double), noise: Double, seed: UInt64, limit: Int = 2000,
        aim: (Int) -> (Double, Double) = { corners[$0] }
    ) -> [RouteFollower.Event] {
        var generator = SeededGenerator(seed: seed)
        var position = start
        var events: [RouteFollower.Event] = []
        for _ in 0..<limit where !follower.isFinished {
            let target = aim(follower.index)
            let (dx, dy) = (target.0 - position.0, target.1 - position.1)
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0.7 { position = (position.0 + 1.4 * dx / length, position.1 + 1.4 * dy / length) }
            let fix = point(east: position.0 + noise * generator.gaussian(), north: position.1 + noise * generator.gaussian())
            if let event = follower.update(position: fix, errorMeters: noise * 2.45) { events.append(event) }
        }
        return events
    }

    @Test("a 5-waypoint walk with 3 m of noise: each waypoint done once, in order, and the last one finishes it", arguments: 0..<10)
    func fiveWaypoints(seed: UInt64) {
        var follower = RouteFollower(waypoints: Self.route)
        let events = Self.walk(&follower, from: (0, 0), noise: 3, seed: seed)
        #expect(events == [.reached(0), .reached(1), .reached(2), .reached(3), .finished], "seed \(seed): \(events)")
        #expect(follower.isFinished && follower.current == nil)
    }

    @Test("standing on the radius for 20 minutes with noise: one event at most, and the target never goes back", arguments: 0..<5)
    func noFlicker(seed: UInt64) {
        var follower = RouteFollower(waypoints: Self.route)
        var generator = SeededGenerator(seed: 100 + seed)
        var events: [RouteFollower.Event] = []
        var lastIndex = follower.index
        // 15 m south of waypoint 0, on its radius, with 4 m of noise: in and out every few fixes.
        for _ in 0..<1200 {
            let fix = Self.point(east: 4 * generator.gaussian(), north: 105 + 4 * generator.gaussian())
            if let event = follower.update(position: fix, errorMeters: 5) { events.append(event) }
            #expect(follower.index >= lastIndex)
            lastIndex = follower.index
        }
        #expect(events.count <= 1, "\(events)")
        #expect(events.allSatisfy { $0 == .reached(0) })
    }

    @Test("a corner cut, from waypoint 0 straight to waypoint 2 (85 m wide of waypoint 1): 1 is passed, not reached")
    func cornerCut() {
        var follower = RouteFollower(waypoints: Self.route)
        let events = Self.walk(&follower, from: (0, 0), noise: 1, seed: 7) { index in
            index == 1 ? Self.corners[2] : Self.corners[index]
        }
        #expect(events.first == .reached(0))
        #expect(events.contains(.passed(1)), "\(events)")
        #expect(!events.contains(.reached(1)), "\(events)")
        #expect(events.last == .finished)
    }

    @Test("walking past the side of a waypoint, away from the next leg, does not count as passing it")
    func notPassed() {
        var follower = RouteFollower(waypoints: Self.route, index: 1)
        // Waypoint 1 is (120, 120); the next leg goes north. Fixes 40 m east of it, level with
        // it, and south of it: never ahead along the next leg.
        for east in stride(from: 140.0, through: 200, by: 2) {
            #expect(follower.update(position: Self.point(east: east, north: 120), errorMeters: 3) == nil)
            #expect(follower.update(position: Self.point(east: east, north: 90), errorMeters: 3) == nil)
        }
        #expect(follower.index == 1)
    }

    @Test("the radius widens to 2·eph, as the navigator's arrival does; a waypoint's own radius is used")
    func radii() {
        var wide = RouteFollower(waypoints: Self.route)
        // 25 m from waypoint 0 with eph 13: within 2·eph = 26 m.
        #expect(wide.update(position: Self.point(east: 0, north: 95), errorMeters: 13) == nil)
        #expect(wide.update(position: Self.point(east: 0, north: 95), errorMeters: 13) == .reached(0))
        var own = RouteFollower(waypoints: [RouteFollower.Waypoint(coordinate: Self.origin, radiusMeters: 3)])
        #expect(own.update(position: Self.point(east: 5, north: 0), errorMeters: 1) == nil)
        #expect(own.update(position: Self.point(east: 5, north: 0), errorMeters: 1) == nil)
        #expect(own.update(position: Self.point(east: 2, north: 0), errorMeters: 1) == nil)
        #expect(own.update(position: Self.point(east: 2, north: 0), errorMeters: 1) == .finished)
    }

    @Test("skip and reverse; the distance left runs along the remaining legs")
    func controls() {
        var follower = RouteFollower(waypoints: Self.route)
        #expect(abs(follower.remainingMeters(from: Self.point(east: 0, north: 0)) - 600) < 1, "120 + 4 × 120")
        var moved = follower.skip(by: 2)
        #expect(moved && follower.index == 2)
        moved = follower.skip(by: 10)
        #expect(moved && follower.index == 4, "clamped to the last")
        moved = follower.skip(by: 1)
        #expect(!moved, "already at the last")
        moved = follower.skip(by: -10)
        #expect(moved && follower.index == 0)
        // Walking the leg from waypoint 1 to 2, then turning round: back to waypoint 1.
        _ = follower.skip(by: 2)
        follower.reverse()
        #expect(follower.current?.coordinate == Self.route[1].coordinate)
        #expect(follower.waypoints.first?.coordinate == Self.route[4].coordinate)
        // Not begun: reversed, it starts from the other end.
        var fresh = RouteFollower(waypoints: Self.route)
        fresh.reverse()
        #expect(fresh.current?.coordinate == Self.route[4].coordinate)
        #expect(RouteFollower(waypoints: []).current == nil)
    }
}
