import ControlProtocol
import Core
import Daemon
import Geodesy
import Guidance
import TestSupport
import Testing

/// Routes and places through the daemon's decisions, on manual time (issue 19): what a
/// walker's fixes do to a route can only be simulated here; the end-to-end test runs the
/// daemon on `--simulate`.
@Suite("The daemon core: routes and places", .timeLimit(.minutes(5)))
struct DaemonStateRouteTests {
    static let origin = ParisGrid.origin

    static func point(_ east: Double, _ north: Double) -> Coordinate { ParisGrid.point(east, north) }

    /// Five waypoints 80 m apart, zigzagging.
    static let waypoints = [(0.0, 80.0), (80, 80), (80, 160), (160, 160), (160, 240)].enumerated().map {
        DestinationReport(
            latitude: point($0.element.0, $0.element.1).latitudeDegrees,
            longitude: point($0.element.0, $0.element.1).longitudeDegrees, name: "W\($0.offset + 1)")
    }

    static func failure<Reply>(_ reply: Result<Reply, ControlError>) -> ControlError? {
        if case .failure(let error) = reply { error } else { nil }
    }

    static func fix(_ coordinate: Coordinate, eph: Double = 4) -> Fix { ParisGrid.fix(coordinate, errorMeters: eph) }

    /// Walks from the origin towards whatever the daemon guides to, 1.4 m/s with a fix a
    /// second, wobbling up to `wobble` metres across the way; returns every pattern played and
    /// every route change saved.
    static func walk(_ state: inout DaemonState, from start: Double, seconds: Int, wobble: Double = 3)
        -> (patterns: [HapticPattern], saved: [SavedRoute?])
    {
        var patterns: [HapticPattern] = []
        var saved: [SavedRoute?] = []
        var (east, north) = (0.0, 0.0)
        for second in 0..<seconds {
            let at = start + Double(second)
            if let target = state.status(at: at, duty: 0, pattern: nil, motorFault: nil).destination {
                let targetNorth = (target.latitude - origin.latitudeDegrees) * ParisGrid.metersPerDegreeNorth
                let targetEast = (target.longitude - origin.longitudeDegrees) * ParisGrid.metersPerDegreeEast
                let (dx, dy) = (targetEast - east, targetNorth - north)
                let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                let step = min(1.4, length)
                east += dx / length * step
                north += dy / length * step
            }
            let across = wobble * ((second * 7919) % 13 - 6 == 0 ? 0 : Double((second * 7919) % 13 - 6) / 6)
            let result = state.fix(fix(point(east + across, north - across)), at: at)
            patterns += DaemonStateTests.patterns(result.actions)
            saved += SavedItem.saved(by: result.effects, in: state.persistent).compactMap {
                if case .target(_, let route) = $0 { route } else { nil }
            }
        }
        return (patterns, saved)
    }

    @Test("a 5-waypoint route walked to the end: waypoint-reached 4 times, arrived once, progress saved at each")
    func walkTheRoute() throws {
        var state = DaemonStateTests.fresh()
        let load = state.route(.load(name: "Zigzag", waypoints: Self.waypoints), at: 0)
        #expect(DaemonStateTests.patterns(load.effects) == [.destinationAccepted])
        let report = try #require(try load.reply.get())
        #expect(report.waypoint == 1 && report.count == 5 && report.target.name == "W1" && !report.isFinished)
        #expect(DaemonStateTests.saves(load) == [.target(nil, state.persistent.route)])
        #expect(state.persistent.route != nil)

        let walked = Self.walk(&state, from: 1, seconds: 600)
        #expect(walked.patterns.filter { $0 == .waypointReached }.count == 4, "\(walked.patterns)")
        #expect(walked.patterns.filter { $0 == .arrived }.count == 1)
        #expect(walked.saved.map { $0?.index } == [1, 2, 3, 4, 5])
        let status = state.status(at: 700, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.state == "arrived")
        #expect(status.route?.isFinished == true && status.route?.waypoint == 5)
        #expect(status.destination?.name == "W5")

        // Issue 30, item 6: next on a finished route is refused as at the last waypoint, and
        // changes nothing: no pattern, no save, still finished.
        let next = state.route(.next, at: 701)
        #expect(next.reply == .failure(ControlError(.refused, "the route is finished; load another or reverse it")))
        #expect(next.effects.isEmpty, "\(next.effects)")
        let after = state.status(at: 702, duty: 0, pattern: nil, motorFault: nil)
        #expect(after.state == "arrived" && after.route?.isFinished == true)
    }

    @Test("a restart mid-route resumes at the same waypoint; next, previous and reverse move it, and say when they cannot")
    func resumeAndMove() throws {
        var state = DaemonStateTests.fresh()
        _ = state.route(.load(name: "Zigzag", waypoints: Self.waypoints), at: 0)
        _ = Self.walk(&state, from: 1, seconds: 150)
        let reached = try #require(state.persistent.route)
        #expect(reached.index >= 1 && reached.index < 5)

        var restarted = DaemonStateTests.fresh(saved: state.persistent)
        let start = restarted.start(at: 0)
        #expect(DaemonStateTests.patterns(start) == [.destinationAccepted])
        var status = restarted.status(at: 0, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.route?.waypoint == reached.index + 1)
        #expect(status.destination?.name == "W\(reached.index + 1)")

        let previous = try #require(try restarted.route(.previous, at: 1).reply.get())
        #expect(previous.waypoint == reached.index)
        var first = restarted
        while (try? first.route(.previous, at: 2).reply.get()) != nil {}
        #expect(first.route(.previous, at: 3).reply == .failure(ControlError(.refused, "already at the first waypoint")))
        // Reversed from waypoint k (walking the leg from k-1 to k): back to k-1, counted from the other end.
        let beforeReverse = try #require(try restarted.route(.show, at: 4).reply.get()).waypoint
        let reversed = try #require(try restarted.route(.reverse, at: 5).reply.get())
        #expect(reversed.waypoint == 5 - (beforeReverse - 1) + 1)
        #expect(reversed.target.name == "W\(beforeReverse - 1)")
        #expect(restarted.persistent.route?.waypoints.first?.name == "W5")
        status = restarted.status(at: 6, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.destination?.name == "W\(beforeReverse - 1)")
    }

    @Test("go and clear drop the route; route commands without one are refused")
    func goDropsRoute() {
        var state = DaemonStateTests.fresh()
        #expect(state.route(.next, at: 0).reply == .failure(ControlError(.refused, "no route is loaded; load one with route load")))
        #expect(state.route(.show, at: 0).reply == .success(nil))
        _ = state.route(.load(name: nil, waypoints: Self.waypoints), at: 0)
        let go = state.go(DaemonStateTests.far, name: "far", at: 1)
        #expect(DaemonStateTests.saves(go).contains(.target(SavedDestination(coordinate: DaemonStateTests.far, name: "far"), nil)))
        #expect(state.status(at: 2, duty: 0, pattern: nil, motorFault: nil).route == nil)
        _ = state.route(.load(name: nil, waypoints: Self.waypoints), at: 3)
        let clear = state.route(.clear, at: 4)
        #expect(DaemonStateTests.saves(clear) == [.target(nil, nil)])
        #expect(state.state == .idle)
    }

    @Test("a waypoint's own radius is the navigator's too: arrival at a 40 m last waypoint comes 40 m out")
    func ownRadius() throws {
        var state = DaemonStateTests.fresh()
        let end = Self.point(0, 100)
        let waypoint = DestinationReport(latitude: end.latitudeDegrees, longitude: end.longitudeDegrees, name: "Gate", radiusMeters: 40)
        _ = state.route(.load(name: nil, waypoints: [waypoint]), at: 0)
        for second in 1...3 {
            _ = state.fix(Self.fix(Self.point(0, 65)), at: Double(second))
        }
        #expect(state.state == .arrived)
    }

    @Test("places: add, go by name in any case, a suggestion for a near miss, rename, remove, refusals")
    func places() throws {
        var state = DaemonStateTests.fresh()
        let bakery = DestinationReport(latitude: 48.86, longitude: 2.29, name: "Bakery", radiusMeters: 8)
        let add = state.place(.add(bakery, replacing: false), at: 0)
        #expect(DaemonStateTests.saves(add).count == 1)
        #expect(state.place(.add(bakery, replacing: false), at: 0).reply
            == .failure(ControlError(.refused, "a place called \"Bakery\" exists already; replace it (place add --replace, or \"replace\":true), or pick another name")))
        #expect(Self.failure(state.goPlace("bakery", at: 1).reply) == nil)
        let status = state.status(at: 1, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.destination == bakery)
        #expect(state.pipeline.navigator.destinationRadiusMeters == 8)
        #expect(Self.failure(state.goPlace("Bakrey", at: 2).reply)
            == (ControlError(.notFound, "no place or recent destination is called \"Bakrey\"; did you mean \"Bakery\"?")))
        #expect(Self.failure(state.goPlace("Zoo", at: 2).reply) == (ControlError(.notFound, "no place or recent destination is called \"Zoo\"")))
        _ = state.go(DaemonStateTests.far, name: "Far corner", at: 3)
        #expect(Self.failure(state.goPlace("FAR CORNER", at: 4).reply) == nil)
        #expect(state.place(.rename("bakery", to: "Old bakery"), at: 5).reply == .success(nil))
        #expect(state.persistent.places.map(\.name) == ["Old bakery"])
        #expect(state.place(.remove("bakery"), at: 6).reply == .failure(ControlError(.notFound, "no place is called \"bakery\"")))
        #expect(state.place(.remove("old BAKERY"), at: 6).reply == .success(nil))
        #expect(state.persistent.places.isEmpty)
    }

    @Test("place mark averages the fixes of the last seconds and reports the error; without a fix it is refused")
    func mark() throws {
        var state = DaemonStateTests.fresh()
        #expect(state.place(.mark(name: "Car", seconds: 5, radiusMeters: nil, replacing: false), at: 0).reply
            == .failure(ControlError(.refused, "no fix with a position in the last 5 s; mark needs to know where you are")))
        // Ten seconds walking up, then five standing at the car with a metre of jitter.
        for second in 0..<10 { _ = state.fix(Self.fix(Self.point(0, Double(second) * 1.4 - 30)), at: Double(second)) }
        let car = Self.point(0, 0)
        for second in 10..<15 {
            _ = state.fix(Self.fix(Self.point(second % 2 == 0 ? 1 : -1, 0)), at: Double(second))
        }
        let report = try #require(try state.place(.mark(name: "Car", seconds: 4.5, radiusMeters: 6, replacing: false), at: 14.5).reply.get())
        #expect(report.fixes == 5)
        let marked = Coordinate(uncheckedLatitudeDegrees: report.place.latitude, longitudeDegrees: report.place.longitude)
        #expect(Geodesic.wgs84.inverse(from: marked, to: car).distanceMeters < 0.5)
        #expect(report.errorMeters >= 3.5 && report.errorMeters <= 4.5, "one fix's eph (4 m), barely shrunk: \(report.errorMeters)")
        #expect(report.place.radiusMeters == 6)
        #expect(state.persistent.places.place(named: "car")?.arrivalRadiusMeters == 6)

        // Issue 30, item 4: marked while walking (14 m in the 10 s averaged, eph 4 m): refused,
        // saying how far (12.6 m over the fixes of the last 10 s), rather than a mark in the middle of the path claimed within 4.6 m.
        var walking = DaemonStateTests.fresh()
        for second in 0..<11 { _ = walking.fix(Self.fix(Self.point(0, Double(second) * 1.4)), at: Double(second)) }
        #expect(
            walking.place(.mark(name: "Bench", seconds: 10, radiusMeters: nil, replacing: false), at: 10.5).reply
                == .failure(ControlError(.refused, "the fixes moved 13 m in the 10 s averaged, more than their 4.0 m error: stand still and mark again")))
        #expect(walking.persistent.places.isEmpty)
    }
}
