import Foundation
import Geodesy
import Guidance
import PlaceIndex
import TestSupport
import Testing

/// Walks planned by Debian's Routino over the routes `map import` built from the real Monaco
/// extract (issue 41), and every way a plan can fail: a point in the sea, a place far outside
/// the map, a damaged or foreign database, a router that is killed, hangs or floods.
@Suite("Walking routes planned with Routino", .serialized, .timeLimit(.minutes(5)))
struct WalkPlannerTests {
    /// A state directory with Monaco's index and routes, imported once.
    static let monaco = Result { try WalkOracleTests.imported(RoutesImportTests.monaco) }

    static func state() throws -> String {
        try RoutesImportTests.requireRoutino()
        return try monaco.get()
    }

    /// The Casino and the Place du Palais.
    static let casino = Coordinate(uncheckedLatitudeDegrees: 43.7384, longitudeDegrees: 7.4246)
    static let palace = Coordinate(uncheckedLatitudeDegrees: 43.7311, longitudeDegrees: 7.4197)

    static func failure(_ body: () throws(WalkPlanner.Failure) -> WalkPlan) -> WalkPlanner.Failure? {
        do throws(WalkPlanner.Failure) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// A copy of the routes, to damage.
    static func copy(_ state: String) throws -> String {
        let copy = state + "-copy-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        return copy
    }

    /// A stand-in router: a shell script in its own directory.
    static func standIn(_ script: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("router-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/routino-router-slim"
        try Data(("#!/bin/sh\n" + script + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test("the Casino to the Place du Palais: a walk of about 1.2 km on the ways, starting beside the Casino, with turns")
    func realWalk() throws {
        let planner = WalkPlanner(stateDirectory: try Self.state())
        let plan = try planner.plan(from: Self.casino, to: Self.palace, profile: .foot)
        let straight = Geodesic.wgs84.inverse(from: Self.casino, to: Self.palace).distanceMeters
        #expect(plan.distanceMeters > straight && plan.distanceMeters < 2 * straight, "\(plan.distanceMeters) m, \(straight) straight")
        #expect(Geodesic.wgs84.inverse(from: Self.casino, to: plan.shape[0]).distanceMeters < 30)
        #expect(Geodesic.wgs84.inverse(from: Self.palace, to: plan.shape[plan.shape.count - 1]).distanceMeters < 50)
        #expect(plan.turns.count >= 3)
        #expect(plan.turns.allSatisfy { abs($0.turnDegrees) >= 30 && $0.instruction(inMeters: 10).hasPrefix("in 10 m ") })
        // Routino's walking speed: 4 km/h.
        #expect(abs(plan.durationSeconds - plan.distanceMeters / (4 / 3.6)) < 60, "\(plan.durationSeconds) s")
        // A wheelchair is kept off the steps this walk takes.
        let wheelchair = Self.failure { () throws(WalkPlanner.Failure) in
            try planner.plan(from: Self.casino, to: Self.palace, profile: .wheelchair)
        }
        #expect(wheelchair == nil || wheelchair == .noPath(.wheelchair))
    }

    @Test("a point in the sea and a place far outside the map get a sentence naming which end, not a route")
    func outside() throws {
        let planner = WalkPlanner(stateDirectory: try Self.state())
        let sea = Coordinate(uncheckedLatitudeDegrees: 43.72, longitudeDegrees: 7.44)
        let seaFailure = Self.failure { () throws(WalkPlanner.Failure) in try planner.plan(from: Self.casino, to: sea, profile: .foot) }
        guard case .farFromWays(.destination, _)? = seaFailure else {
            Issue.record("\(String(describing: seaFailure))")
            return
        }
        #expect("\(seaFailure!)".contains("is it outside the map, or in the sea?"))
        let paris = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
        let parisFailure = Self.failure { () throws(WalkPlanner.Failure) in try planner.plan(from: paris, to: Self.palace, profile: .foot) }
        guard case .farFromWays(.start, _)? = parisFailure else {
            Issue.record("\(String(describing: parisFailure))")
            return
        }
    }

    @Test("no routes, no Routino: each says how to get them")
    func missing() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-routes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: empty).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        #expect(none == .noRoutes)
        #expect("\(none!)".contains("waypointd map import FILE.osm.pbf"))
        let noRoutino = WalkPlanner(stateDirectory: try Self.state(), router: nil)
        let noRouter = Self.failure { () throws(WalkPlanner.Failure) in
            try noRoutino.plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        #expect(noRouter == .noRouter)
        #expect("\(noRouter!)".contains("apt install routino"))
    }

    @Test("a truncated database, or one another Routino wrote, is refused before Routino plans nonsense over it")
    func damaged() throws {
        let copy = try Self.copy(try Self.state())
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let segments = copy + "/routes/walk-segments.mem"
        try FileHandle(forWritingTo: URL(fileURLWithPath: segments)).truncate(atOffset: 10_000)
        let truncated = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: copy).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        guard case .damaged(let reason)? = truncated else {
            Issue.record("\(String(describing: truncated))")
            return
        }
        #expect(reason.contains("walk-segments.mem is 10000 bytes"), "\(reason)")
        #expect("\(truncated!)".contains("import the map again"))

        // Without the manifest (an older import), the route itself gives the damage away.
        try FileManager.default.removeItem(atPath: copy + "/routes/walk.manifest")
        let leaping = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: copy).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        guard case .damaged? = leaping else {
            Issue.record("\(String(describing: leaping))")
            return
        }

        let foreign = try Self.copy(try Self.state())
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        let manifest = foreign + "/routes/walk.manifest"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("routino 3.") == true, "\(text)")
        try (["routino 2.7"] + lines.dropFirst()).joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        let other = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: foreign).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        guard case .damaged(let why)? = other else {
            Issue.record("\(String(describing: other))")
            return
        }
        #expect(why.contains("Routino 2.7 wrote them"), "\(why)")
    }

    @Test("a router killed mid-plan, one that hangs, one that floods: a clear error each, within the limits")
    func hostileRouters() throws {
        let state = try Self.state()
        let killed = try Self.standIn("echo '# header'; printf ' 43.7\\t7.4\\t1\\tWaypt#1\\t0\\t0\\t0\\t0\\t\\t\\t\\n'; kill -9 $$")
        let killedFailure = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: state, router: killed).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        #expect(killedFailure == .routerFailed("ended by signal 9"), "\(String(describing: killedFailure))")

        var slow = WalkPlanner(stateDirectory: state, router: try Self.standIn("exec sleep 30"))
        slow.timeoutSeconds = 1
        let started = Date()
        let slowFailure = Self.failure { () throws(WalkPlanner.Failure) in try slow.plan(from: Self.casino, to: Self.palace, profile: .foot) }
        #expect(slowFailure == .timedOut(seconds: 1))
        #expect(Date().timeIntervalSince(started) < 5)

        // 30 000 nodes a metre apart: more than a plan keeps; read no further.
        let flood = try Self.standIn(
            "exec awk 'BEGIN { for (i = 0; i < 30000; i++) printf \" 43.7%05d\\t7.4\\t1\\tInter\\t0.001\\t0\\t0\\t0\\t4\\t0\\tpath\\n\", i }'")
        let floodStarted = Date()
        let floodFailure = Self.failure { () throws(WalkPlanner.Failure) in
            try WalkPlanner(stateDirectory: state, router: flood).plan(from: Self.casino, to: Self.palace, profile: .foot)
        }
        #expect(floodFailure == .tooLong(nodes: WalkPlanner.maximumNodes))
        #expect(Date().timeIntervalSince(floodStarted) < 10)
    }

    @Test("1000 plans in a row: each a walk, and no descriptor left open")
    func thousandPlans() throws {
        let planner = WalkPlanner(stateDirectory: try Self.state())
        func descriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        var halfway = 0
        var lengths: Set<Int> = []
        for index in 0..<1000 {
            if index == 500 { halfway = try descriptors() }
            // From points around the Casino, to the Palace.
            let start = Coordinate(
                uncheckedLatitudeDegrees: Self.casino.latitudeDegrees + Double(index % 10) * 1e-4,
                longitudeDegrees: Self.casino.longitudeDegrees - Double(index / 100) * 1e-4)
            let plan = try planner.plan(from: start, to: Self.palace, profile: .foot)
            lengths.insert(Int(plan.distanceMeters))
        }
        #expect(lengths.count > 5)
        // A descriptor left open per plan would be 500 more over the second half; the margin is
        // for the suites running beside this one in the same process (pipes, children), which
        // open and close their own meanwhile.
        let end = try descriptors()
        #expect(end - halfway < 250, "\(halfway) descriptors open after 500 plans, \(end) after 1000")
    }
}
