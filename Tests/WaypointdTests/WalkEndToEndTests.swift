import Foundation
import Testing
import TestSupport

/// A walk over Monaco's streets end to end (issue 41): the real extract imported with Routino,
/// `waypointd --simulate --simulate-at` standing the simulated wearer by the Casino, and
/// `waypointctl go --walk`. The walker is simulated (it follows the guidance: it heads for the
/// waypoint the daemon guides to); the map, Routino, the programs and the socket are real.
@Suite("Walks end to end", .serialized, .timeLimit(.minutes(10)))
struct WalkEndToEndTests {
    static let speed = 10.0
    static let casino = "43.7384,7.4246"
    /// Below the Rocher, about 600 m of streets and steps from the Casino.
    static let destination = ["43.7350", "7.4213"]

    /// Imports Monaco into the state directory before the daemon starts.
    static func importMonaco(_ state: URL) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/routino-router-slim") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("routino is not installed (apt-get install routino)") }
            try skip("routino is not installed (apt-get install routino)")
        }
        let waypointd = try ExternalTool.built("waypointd")
        let monaco = TestData.packageRoot.appendingPathComponent("Tests/PlaceIndexTests/Data/monaco.osm.pbf").path
        let imported = try ExternalTool.run(waypointd, ["map", "import", monaco, "--state-dir", state.path])
        try #require(imported.status == 0, "\(imported.standardError)")
    }

    /// Waits for the simulated receiver's first fix: a walk is planned from it.
    static func waitForFix(_ daemon: SimulatedDaemon) async throws {
        let fixed = try await daemon.waitForStatus(try daemon.client(), seconds: 30) { $0.object("fix")?["lat"] is Double }
        try #require(fixed != nil, "no fix")
    }

    static func count(_ daemon: SimulatedDaemon, _ text: String) -> Int { daemon.process.errors.filter { $0.text.contains(text) }.count }

    @Test("go --walk from the Casino: planned, each turn told by the corner-ahead pattern before it, and arrived")
    func walkArrives() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon(
            prepareState: Self.importMonaco, extraArguments: ["--simulate-at", Self.casino], speed: Self.speed)
        defer { _ = daemon.stop() }
        // The same plan the walk will follow, from where the wearer stands.
        let plan = try ExternalTool.run(
            waypointctl, ["route", "plan", "--from", Self.casino, Self.destination.joined(separator: ","), "--json", "--socket", daemon.socket])
        #expect(plan.status == 0, "\(plan.standardError)")
        let planned = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
        let turns = try #require(planned["turns"] as? [[String: Any]])
        #expect(turns.count >= 3)

        try await Self.waitForFix(daemon)
        let go = try ExternalTool.run(waypointctl, ["go"] + Self.destination + ["--walk", "--socket", daemon.socket])
        #expect(go.status == 0, "\(go.standardError)")
        #expect(go.standardOutput.contains("destination set: ") && go.standardOutput.contains("\nnext: in "), "\(go.standardOutput)")

        let arrived = await daemon.process.wait(timeout: .seconds(240)) { _, errors in errors.contains { $0.text.contains("route finished") } }
        #expect(arrived, "\(daemon.process.errors.suffix(20).map(\.text))")
        let lines = daemon.process.errors.map(\.text)
        let corners = lines.filter { $0.contains("corner ahead") }
        // Each turn told once (that it comes before the corner is reached: DaemonStateWalkTests).
        #expect(corners.count == turns.count, "\(corners)")
        #expect(Self.count(daemon, "walk planned again") == 0)
        let status = try daemon.client().request(#"{"cmd":"status"}"#)
        #expect(status?["state"] as? String == "arrived")
    }

    @Test("strayed 60 m: a router killed mid-plan is said and the old walk kept; the next plan is counted once, and the walk arrives")
    func strayAndReplan() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        // A routino-router first on PATH that dies while a marker file exists, else the real one.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("walk-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let marker = bin.appendingPathComponent("kill-next").path
        let router = try ExternalTool.find("routino-router-slim", hint: "apt-get install routino")
        let wrapper = bin.appendingPathComponent("routino-router-slim").path
        try Data("#!/bin/sh\nif [ -e \(marker) ]; then echo '# half a route'; kill -9 $$; fi\nexec \(router.path) \"$@\"\n".utf8)
            .write(to: URL(fileURLWithPath: wrapper))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)

        let daemon = try await SimulatedDaemon(
            events: "60 stray 60\n", prepareState: Self.importMonaco, extraArguments: ["--simulate-at", Self.casino],
            environment: ["PATH": "\(bin.path):/usr/bin:/bin"], speed: Self.speed)
        defer { _ = daemon.stop() }
        try await Self.waitForFix(daemon)
        let go = try ExternalTool.run(waypointctl, ["go"] + Self.destination + ["--walk", "--socket", daemon.socket])
        #expect(go.status == 0, "\(go.standardError)")
        FileManager.default.createFile(atPath: marker, contents: nil)

        let failed = await daemon.process.wait(timeout: .seconds(120)) { _, errors in
            errors.contains { $0.text.contains("cannot plan the walk again") }
        }
        #expect(failed, "\(daemon.process.errors.suffix(20).map(\.text))")
        try FileManager.default.removeItem(atPath: marker)
        let client = try daemon.client()
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let walk = try #require(status.object("route")?.object("walk"))
        #expect((walk["problem"] as? String)?.contains("routino-router failed: ended by signal 9") == true, "\(walk)")
        #expect(walk["replans"] as? Int == 0)
        #expect(status["state"] as? String != "idle", "the old walk is kept")

        let arrived = await daemon.process.wait(timeout: .seconds(240)) { _, errors in errors.contains { $0.text.contains("route finished") } }
        #expect(arrived, "\(daemon.process.errors.suffix(20).map(\.text))")
        #expect(Self.count(daemon, "walk planned again") == 1, "\(daemon.process.errors.map(\.text).filter { $0.contains("plan") })")
        let after = try #require(try daemon.client().request(#"{"cmd":"route"}"#))
        #expect(after.object("route")?.object("walk")?["replans"] as? Int == 1, "\(after)")
    }

    @Test("route plan says what is wrong: no routes, the sea, a place far outside the map")
    func planRefusals() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let bare = try await SimulatedDaemon()
        let none = try ExternalTool.run(waypointctl, ["route", "plan", "--from", Self.casino, "43.7350,7.4213", "--socket", bare.socket])
        #expect(none.status != 0 && none.standardError.contains("waypointd map import FILE.osm.pbf"), "\(none.standardError)")
        _ = bare.stop()

        let daemon = try await SimulatedDaemon(prepareState: Self.importMonaco, extraArguments: ["--simulate-at", Self.casino])
        defer { _ = daemon.stop() }
        let sea = try ExternalTool.run(waypointctl, ["route", "plan", "43.72,7.44", "--socket", daemon.socket])
        #expect(sea.status != 0 && sea.standardError.contains("near the destination; is it outside the map, or in the sea?"), "\(sea.standardError)")
        let paris = try ExternalTool.run(waypointctl, ["route", "plan", "--from", "48.8584,2.2945", Self.casino, "--socket", daemon.socket])
        #expect(paris.status != 0 && paris.standardError.contains("near the start"), "\(paris.standardError)")
        try await Self.waitForFix(daemon)
        let text = try ExternalTool.run(waypointctl, ["route", "plan", Self.destination.joined(separator: ","), "--socket", daemon.socket])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.hasPrefix("walk: ") && text.standardOutput.contains("\n1. in "), "\(text.standardOutput)")
    }
}
