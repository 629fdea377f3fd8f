import Foundation
import Geodesy
import Guidance
import TestSupport
import Testing

/// A walk's turns, waypoints and words from a router's nodes (issue 41). The shapes are drawn
/// on a local grid (simulation: the plan from real Routino output is tested in
/// `WalkPlannerTests` and against an independent oracle in `WalkOracleTests`).
@Suite("Guidance: a walk's plan", .timeLimit(.minutes(5)))
struct WalkPlanTests {
    @Test("a right-angle corner at a junction is one right turn onto the next street, 100 m from the start")
    func rightAngle() throws {
        let plan = WalkPlan(nodes: DrawnWalk.corner, durationSeconds: 180)
        #expect(plan.turns.count == 1)
        let turn = try #require(plan.turns.first)
        #expect(abs(turn.turnDegrees - 90) < 2, "\(turn.turnDegrees)")
        #expect(turn.street == "Rue B" && !turn.staysOnStreet)
        #expect(abs(turn.distanceMeters - 100) < 1)
        #expect(abs(plan.distanceMeters - 200) < 2)
        // The motor points at the corner, then the end.
        #expect(plan.waypoints == [10, plan.shape.count - 1])
        #expect(plan.turnWaypoints == [0, nil])
        #expect(turn.instruction(inMeters: 96) == "in 100 m turn right onto Rue B")
    }

    @Test("a corner drawn as three kinks a few metres apart counts once")
    func roundedCorner() {
        let nodes = [
            DrawnWalk.node(0, 0), DrawnWalk.node(0, 50), DrawnWalk.node(0, 96, junction: true), DrawnWalk.node(1.5, 98.5, junction: true),
            DrawnWalk.node(4, 100, "Rue B", junction: true), DrawnWalk.node(50, 100, "Rue B"), DrawnWalk.node(100, 100, "Rue B"),
        ]
        let plan = WalkPlan(nodes: nodes, durationSeconds: 0)
        #expect(plan.turns.count == 1, "\(plan.turns.map(\.turnDegrees))")
        #expect(plan.turns.first.map { abs($0.turnDegrees - 90) < 15 } == true)
    }

    @Test("a long gentle curve has no turn, but waypoints that keep each straight leg within 8 m of the way")
    func gentleCurve() {
        // A quarter circle of radius 300 m, a node every ~5 m, no junction.
        let nodes = stride(from: 0.0, through: 90, by: 1).map { degrees in
            let radians = degrees * Double.pi / 180
            return DrawnWalk.node(300 - 300 * cos(radians), 300 * sin(radians))
        }
        let plan = WalkPlan(nodes: nodes, durationSeconds: 0)
        #expect(plan.turns.isEmpty)
        #expect(plan.waypoints.count >= 3, "\(plan.waypoints)")
        #expect(plan.turnWaypoints.allSatisfy { $0 == nil })
        // Every node of the way is within 8 m of the legs between waypoints.
        let legs = [0] + plan.waypoints
        for (first, last) in zip(legs, legs.dropFirst()) {
            let leg = WalkPlan(nodes: [nodes[first], nodes[last]], durationSeconds: 0)
            for index in first...last { #expect(leg.distanceFromShape(nodes[index].coordinate) <= 8.01) }
        }
    }

    @Test("a bend where no way meets is a turn only past 60°; at a junction past 30°")
    func bendsAndJunctions() {
        func plan(degrees: Double, junction: Bool) -> WalkPlan {
            let radians = degrees * Double.pi / 180
            return WalkPlan(
                nodes: [
                    DrawnWalk.node(0, 0), DrawnWalk.node(0, 50, junction: junction),
                    DrawnWalk.node(50 * sin(radians), 50 + 50 * cos(radians)),
                ], durationSeconds: 0)
        }
        #expect(plan(degrees: 40, junction: true).turns.count == 1)
        #expect(plan(degrees: 40, junction: false).turns.isEmpty)
        #expect(plan(degrees: 70, junction: false).turns.count == 1)
        #expect(plan(degrees: -20, junction: true).turns.isEmpty)
    }

    @Test("the words: left and right by the sign, bear and sharply by the angle, a way without a name by what it is")
    func words() {
        func turn(_ degrees: Double, _ way: String, stays: Bool = false) -> WalkPlan.Turn {
            var turn = WalkPlan.Turn(
                coordinate: ParisGrid.origin, turnDegrees: degrees, street: WalkPlan.isUnnamed(way) ? nil : way, way: way,
                distanceMeters: 0, alongMeters: 0)
            turn.staysOnStreet = stays
            return turn
        }
        #expect(turn(-90, "Landstrasse").instruction(inMeters: 120) == "in 120 m turn left onto Landstrasse")
        #expect(turn(35, "steps").instruction(inMeters: 47) == "in 45 m bear right onto the steps")
        #expect(turn(-150, "path").action == "turn sharply left onto the path")
        #expect(turn(175, "Rue B").action == "turn back onto Rue B")
        #expect(turn(-80, "Avenue de la Costa", stays: true).action == "turn left, still on Avenue de la Costa")
        #expect(WalkPlan.Turn.spoken(meters: 1234) == "1.2 km")
        #expect(WalkPlan.Turn.spoken(meters: 994) == "990 m")
        #expect(WalkPlan.Turn.spoken(meters: -3) == "0 m")
    }

    @Test("distance from the line: on it 0, beside it the perpendicular, past its end the distance to the end")
    func distanceFromShape() {
        let plan = WalkPlan(nodes: DrawnWalk.corner, durationSeconds: 0)
        #expect(plan.distanceFromShape(ParisGrid.point(0, 50)) < 0.5)
        #expect(abs(plan.distanceFromShape(ParisGrid.point(30, 50)) - 30) < 0.5)
        #expect(abs(plan.distanceFromShape(ParisGrid.point(100, 130)) - 30) < 0.5)
        #expect(abs(plan.distanceFromShape(ParisGrid.point(130, 100)) - 30) < 0.5)
        // From the leg after the corner on, the first street is left out.
        #expect(abs(plan.distanceFromShape(ParisGrid.point(-20, 50), fromIndex: 10) - 53.9) < 1)
    }
}
