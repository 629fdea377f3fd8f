import Foundation
import Geodesy
import Guidance
import PlaceIndex
import TestSupport
import Testing

/// Routino's walks held to an independent oracle (issue 41): `scripts/walk_oracle.py` reads the
/// walkable ways of the real extract with pyosmium and runs a Dijkstra of its own between 40
/// random pairs of addresses 300 m to 3 km apart that it connects. Our plan must exist for 95 %
/// of them, be 0.85 to 1.25 times the oracle's shortest walk for 90 %, and 99 % of its points
/// every 5 m must lie within 8 m of a walkable way the oracle read. Andorra's extract holds
/// only three addresses: there the pairs are walkable nodes 300 m to 3 km apart instead.
@Suite("Walks against an independent oracle", .serialized, .timeLimit(.minutes(10)))
struct WalkOracleTests {
    static let oracle = TestData.packageRoot.appendingPathComponent("scripts/walk_oracle.py").path

    /// A state directory with `extract`'s index and routes.
    static func imported(_ extract: String) throws -> String {
        try RoutesImportTests.requireRoutino()
        let waypointd = try ExternalTool.built("waypointd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let imported = try ExternalTool.run(waypointd, ["map", "import", extract, "--state-dir", state])
        try #require(imported.status == 0, "\(imported.standardError)")
        return state
    }

    /// The oracle's output for `arguments`, as JSON.
    static func ask(_ arguments: [String]) throws -> [String: Any] {
        let python = try ExternalTool.find("python3", hint: "apt-get install python3 python3-pyosmium")
        let output = try ExternalTool.run(python, [oracle] + arguments, limit: .seconds(240))
        try #require(output.status == 0, "walk_oracle.py: \(output.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    @Test("Monaco and Andorra: 40 pairs each (addresses; Andorra's walkable nodes), a route for 95 %, its length 0.85–1.25 × the oracle's for 90 %, 99 % of its points on a walkable way", arguments: ["monaco", "andorra"])
    func againstTheOracle(_ name: String) throws {
        let extract = HostileImportTests.data.appendingPathComponent("\(name).osm.pbf").path
        let state = try Self.imported(extract)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let endpoints = name == "andorra" ? "nodes" : "addresses"
        let pairs = try #require(
            try Self.ask(["pairs", extract, "--count", "40", "--seed", "41", "--endpoints", endpoints])["pairs"] as? [[String: Any]])
        #expect(pairs.count == 40, "the oracle connected only \(pairs.count) pairs")

        let planner = WalkPlanner(stateDirectory: state)
        var planned = 0
        var close = 0
        var shapes: [[[Double]]] = []
        var misses: [String] = []
        for pair in pairs {
            let from = try #require(pair["from"] as? [Double])
            let to = try #require(pair["to"] as? [Double])
            let oracleMeters = try #require(pair["oracle_m"] as? Double)
            let start = Coordinate(uncheckedLatitudeDegrees: from[0], longitudeDegrees: from[1])
            let end = Coordinate(uncheckedLatitudeDegrees: to[0], longitudeDegrees: to[1])
            let plan: WalkPlan
            do throws(WalkPlanner.Failure) {
                plan = try planner.plan(from: start, to: end, profile: .foot)
            } catch {
                misses.append("\(from) → \(to): \(error)")
                continue
            }
            planned += 1
            // Both measured from the address to the address: the oracle from its nearest node,
            // ours from where Routino joins the way.
            let ours =
                Geodesic.wgs84.inverse(from: start, to: plan.shape[0]).distanceMeters + plan.distanceMeters
                + Geodesic.wgs84.inverse(from: plan.shape[plan.shape.count - 1], to: end).distanceMeters
            let ratio = ours / oracleMeters
            if (0.85...1.25).contains(ratio) {
                close += 1
            } else {
                misses.append("\(from) → \(to): \(Int(ours)) m, the oracle \(Int(oracleMeters)) m (× \(ratio))")
            }
            shapes.append(plan.shape.map { [$0.latitudeDegrees, $0.longitudeDegrees] })
        }
        #expect(Double(planned) >= 0.95 * Double(pairs.count), "\(planned) of \(pairs.count) planned: \(misses)")
        #expect(Double(close) >= 0.90 * Double(pairs.count), "\(close) of \(pairs.count) within 0.85–1.25: \(misses)")

        let shapesFile = state + "/shapes.json"
        try JSONSerialization.data(withJSONObject: ["shapes": shapes]).write(to: URL(fileURLWithPath: shapesFile))
        let near = try Self.ask(["near", extract, shapesFile, "--step", "5", "--threshold", "8"])
        let fraction = try #require(near["fraction"] as? Double)
        // The figures, for the closing notes of changes to planning.
        print("walk oracle \(name): \(planned)/\(pairs.count) planned, \(close) within 0.85–1.25, \(near)")
        #expect(fraction >= 0.99, "\(near)")
        #expect((near["points"] as? Int ?? 0) > 1000, "\(near)")
    }
}
