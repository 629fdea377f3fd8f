import Geodesy
import Guidance
import TestSupport
import Testing

/// The corner ahead and the wearer off the path (issue 41), on a drawn corner and manual time:
/// simulation; the daemon's end-to-end test walks a real Routino plan in Monaco.
@Suite("Guidance: following a walk", .timeLimit(.minutes(5)))
struct WalkProgressTests {
    static let plan = WalkPlan(nodes: DrawnWalk.corner, durationSeconds: 180)

    @Test("the corner ahead is told once, 15 m before it at a stroll and farther at a brisk pace")
    func cornerAhead() {
        var progress = WalkProgress(plan: Self.plan, plannedSeconds: 0)
        var told: [Int] = []
        for north in stride(from: 0.0, through: 98, by: 1) {
            let event = progress.update(
                position: ParisGrid.point(0, north), errorMeters: 4, speedMetersPerSecond: 1.2, waypoint: 0, seconds: north)
            if case .cornerAhead(let turn) = event {
                told.append(turn)
                #expect(abs(100 - north - 15) <= 1, "told \(100 - north) m before")
            }
        }
        #expect(told == [0])

        var brisk = WalkProgress(plan: Self.plan, plannedSeconds: 0)
        #expect(brisk.update(position: ParisGrid.point(0, 70), errorMeters: 4, speedMetersPerSecond: 2.5, waypoint: 0, seconds: 1) == nil)
        #expect(
            brisk.update(position: ParisGrid.point(0, 76), errorMeters: 4, speedMetersPerSecond: 2.5, waypoint: 0, seconds: 2)
                == .cornerAhead(0))
    }

    @Test("off the path: 25 m for 10 s plans again, 40 m at once; a poor fix's error is allowed for")
    func offThePath() {
        var progress = WalkProgress(plan: Self.plan, plannedSeconds: -100)
        let away = ParisGrid.point(30, 50)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 0) == nil)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 9) == nil)
        let strayed = progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 10)
        #expect(strayed.map { if case .strayed(let meters) = $0 { abs(meters - 30) < 0.5 } else { false } } == true)
        // Back on the path, the clock starts again.
        #expect(progress.update(position: ParisGrid.point(0, 60), errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 30) == nil)

        // 30 m off with a 10 m error may be on the path: never.
        var poor = WalkProgress(plan: Self.plan, plannedSeconds: -100)
        for second in 0..<60 {
            #expect(poor.update(position: away, errorMeters: 10, speedMetersPerSecond: 1, waypoint: 0, seconds: Double(second)) == nil)
        }

        var far = WalkProgress(plan: Self.plan, plannedSeconds: -100)
        let distance = far.update(position: ParisGrid.point(-45, 50), errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 0)
        #expect(distance.map { if case .strayed(let meters) = $0 { abs(meters - 45) < 0.5 } else { false } } == true)
    }

    @Test("a new plan is asked for at most once every 15 s, counted from the plan and from a failed one")
    func interval() {
        let away = ParisGrid.point(-60, 50)
        var progress = WalkProgress(plan: Self.plan, plannedSeconds: 0)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 5) == nil)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 15) != nil)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 20) == nil)
        progress.planFailed(at: 29)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 40) == nil)
        #expect(progress.update(position: away, errorMeters: 3, speedMetersPerSecond: 1, waypoint: 0, seconds: 44) != nil)
    }

    @Test("the next turn and the metres to it along the way, from the waypoint walked to")
    func nextTurn() {
        let progress = WalkProgress(plan: Self.plan, plannedSeconds: 0)
        #expect(progress.nextTurn(waypoint: 0) == 0)
        #expect(progress.nextTurn(waypoint: 1) == nil)
        #expect(abs(progress.metersToTurn(0, from: ParisGrid.point(0, 40), waypoint: 0) - 60) < 0.5)
    }
}
