import ControlProtocol
import Core
import Daemon
import Geodesy
import Guidance
import TestSupport
import Testing

/// A walk over the streets through the daemon's decisions (issue 41), on a drawn corner and
/// manual time (simulation: the end-to-end test walks a real Routino plan in Monaco).
@Suite("The daemon core: walks", .timeLimit(.minutes(5)))
struct DaemonStateWalkTests {
    static let destination = SavedDestination(coordinate: ParisGrid.point(100, 105), name: "Bakery")

    static func started() -> DaemonState {
        var state = DaemonStateTests.fresh()
        _ = state.fix(ParisGrid.fix(ParisGrid.point(0, 0), errorMeters: 4), at: 0)
        let outcome = state.startWalk(
            WalkPlan(nodes: DrawnWalk.corner, durationSeconds: 180), to: Self.destination, profile: "foot", at: 1, utcSeconds: 0)
        #expect(DaemonStateTests.patterns(outcome.effects) == [.destinationAccepted])
        return state
    }

    static func planned(_ effects: [DaemonState.Effect]) -> [Coordinate] {
        effects.compactMap { if case .planWalk(let from, _, _) = $0 { from } else { nil } }
    }

    @Test("a walk guides to the corner first, the destination (its name) last, and STATUS says the next turn")
    func startsAtTheCorner() throws {
        let state = Self.started()
        let route = try #require(state.target.route)
        #expect(route.follower.waypoints.count == 2)
        #expect(route.follower.waypoints.last?.name == "Bakery")
        #expect(state.recent.first?.name == "Bakery")
        let status = state.status(at: 2, duty: 0, pattern: nil, motorFault: nil)
        let walk = try #require(status.route?.walk)
        #expect(walk.next?.instruction == "in 100 m turn right onto Rue B", "\(String(describing: walk.next))")
        #expect(walk.replans == 0 && walk.problem == nil)
    }

    @Test("walked along: the corner-ahead pattern before the corner, then arrival; no new plan on the path")
    func walkedAlong() {
        var state = Self.started()
        var patterns: [HapticPattern] = []
        var plans = 0
        var second = 2.0
        for (east, north) in stride(from: 0.0, through: 100, by: 1.4).map({ (0.0, $0) }) + stride(from: 0.0, through: 104, by: 1.4).map({ ($0, 100.0) }) {
            second += 1
            let outcome = state.fix(ParisGrid.fix(ParisGrid.point(east, north), errorMeters: 4), at: second)
            patterns += DaemonStateTests.patterns(outcome.effects) + DaemonStateTests.patterns(outcome.actions)
            plans += Self.planned(outcome.effects).count
        }
        for _ in 0..<3 {
            second += 1
            let outcome = state.fix(ParisGrid.fix(ParisGrid.point(100, 104), errorMeters: 4), at: second)
            patterns += DaemonStateTests.patterns(outcome.actions)
        }
        let corner = patterns.firstIndex(of: .cornerAhead)
        #expect(corner != nil && corner! < patterns.firstIndex(of: .waypointReached)!, "\(patterns)")
        #expect(patterns.filter { $0 == .cornerAhead }.count == 1)
        #expect(patterns.last == .arrived, "\(patterns)")
        #expect(plans == 0)
    }

    @Test("strayed 60 m: one new plan asked for; a failed one keeps the old walk and says why; a good one replaces it, counted")
    func replan() throws {
        var state = Self.started()
        let away = ParisGrid.point(-60, 40)
        var asked: [Coordinate] = []
        for second in 20..<40 {
            asked += Self.planned(state.fix(ParisGrid.fix(away, errorMeters: 4), at: Double(second)).effects)
        }
        #expect(asked.count == 2, "at most one every 15 s: \(asked.count)")
        let before = try #require(state.target.route)

        let failed = state.walkPlanned(.failure(.init("routino-router failed: ended by signal 9")), to: Self.destination.coordinate, at: 41)
        #expect(DaemonStateTests.patterns(failed).isEmpty)
        #expect(state.target.route?.follower == before.follower)
        #expect(state.status(at: 41, duty: 0, pattern: nil, motorFault: nil).route?.walk?.problem == "routino-router failed: ended by signal 9")

        // From where the wearer is, west of Rue A, back to it and on.
        let detour = [DrawnWalk.node(-60, 40, "path", junction: true), DrawnWalk.node(0, 40, "Rue A", junction: true)]
            + DrawnWalk.corner.dropFirst(5)
        let replanned = state.walkPlanned(.success(WalkPlan(nodes: Array(detour), durationSeconds: 200)), to: Self.destination.coordinate, at: 42)
        #expect(DaemonStateTests.patterns(replanned) == [.waypointReached])
        #expect(replanned.contains(DaemonState.Effect.save(.target)))
        let walk = try #require(state.status(at: 43, duty: 0, pattern: nil, motorFault: nil).route?.walk)
        #expect(walk.replans == 1 && walk.problem == nil)
        #expect(state.target.route?.follower.waypoints.last?.name == "Bakery")

        // A plan for a walk no longer followed is dropped.
        _ = state.handle(
            .go(latitude: ParisGrid.point(500, 500).latitudeDegrees, longitude: ParisGrid.point(500, 500).longitudeDegrees, name: nil),
            DaemonState.RequestContext(seconds: 44, utcSeconds: 0, isPatternPlaying: false, storedTrail: []))
        #expect(state.walkPlanned(.success(WalkPlan(nodes: DrawnWalk.corner, durationSeconds: 0)), to: Self.destination.coordinate, at: 45).isEmpty)
        #expect(state.target.route == nil)
    }
}
