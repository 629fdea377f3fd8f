import Foundation
import Testing
import TestSupport

/// The phone companion, all real (issue 28): `waypointd --simulate`, the built `waypoint-web`
/// serving the page from `Web/` with Debian's Leaflet, and Debian's headless Chromium driven by
/// selenium through the page (Tests/WebCompanionTests/Scripts/browser_test.py: pairing, the compass, a
/// pasted Google Maps link, a recent destination, a GPX upload, the trail, axe-core on every
/// screen, the accessibility tree), then the attacks (security_test.py: sessions, Host, Origin,
/// a link used twice, 1000 wrong tokens, slow and huge requests, event streams), then the web
/// process killed under the daemon. The scripts print one line per check; the test passes when
/// they exit 0.
@Suite("The phone companion in a real browser", .serialized, .timeLimit(.minutes(10)))
struct CompanionEndToEndTests {
    static let scripts = TestData.packageRoot.appendingPathComponent("Tests/WebCompanionTests/Scripts")

    /// `waypoint-web` on a free port, for `daemon`.
    final class Companion {
        let process: ChildProcess
        let base: String
        let state: URL
        let binary: URL
        /// An empty config file: the defaults, whatever /etc holds on this machine.
        let configuration: String
        /// Its command line, to start it again on the same port.
        let commandLine: [String]

        init(daemon: SimulatedDaemon) async throws {
            let binary = try ExternalTool.built("waypoint-web")
            self.binary = binary
            let directory = URL(fileURLWithPath: daemon.socket).deletingLastPathComponent()
            state = directory.appendingPathComponent("web-state")
            configuration = directory.appendingPathComponent("waypoint-web.conf").path
            try "".write(toFile: configuration, atomically: true, encoding: .utf8)
            // A port of its own, not the kernel's choice at each start: the browser test stops
            // it and starts it again where the page expects it.
            let arguments = [
                "--listen", "127.0.0.1:\(try GPSDHarness.freePort())", "--socket", daemon.socket, "--state-dir", state.path,
                "--page-dir", TestData.packageRoot.appendingPathComponent("Web").path, "--config", configuration,
            ]
            commandLine = [binary.path] + arguments
            process = try ChildProcess(binary, arguments)
            _ = await process.wait(timeout: .seconds(10)) { _, errors in errors.contains { $0.text.contains("serving http://") } }
            let line = try #require(process.errors.first { $0.text.contains("serving http://") }?.text, "\(process.errors.map(\.text))")
            let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") })
            base = String(address.dropLast())  // the slash
        }

        deinit { process.terminate() }

        func run(_ words: [String]) throws -> ExternalTool.Output {
            try ExternalTool.run(binary, words + ["--state-dir", state.path, "--config", configuration])
        }

        func pairingLink() throws -> String {
            let output = try run(["pair", "--json", "--listen", String(base.dropFirst("http://".count))])
            #expect(output.status == 0, "\(output.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: String]
            return try #require(json?["url"], "\(output.standardOutput)")
        }
    }

    static func python(_ script: String, _ arguments: [String]) throws -> ExternalTool.Output {
        let python = try ExternalTool.find("python3", hint: "apt-get install python3")
        _ = try ExternalTool.find("chromedriver", hint: "apt-get install chromium-driver (scripts/deps.sh)")
        let output = try ExternalTool.run(python, [scripts.appendingPathComponent(script).path] + arguments)
        print(output.standardOutput)
        return output
    }

    @Test("pair, watch the compass, paste a link, choose a recent one and a search result, upload a route, download the trail; axe finds nothing serious")
    func throughTheBrowser() async throws {
        let daemon = try await SimulatedDaemon()
        let companion = try await Companion(daemon: daemon)
        let waypointd = try ExternalTool.built("waypointd")
        defer { _ = daemon.stop() }
        // Monaco's map, for the box's searches (the daemon opens it at the first query).
        let state = URL(fileURLWithPath: daemon.socket).deletingLastPathComponent().appendingPathComponent("state").path
        let extract = TestData.packageRoot.appendingPathComponent("Tests/PlaceIndexTests/Data/monaco.osm.pbf").path
        let imported = try ExternalTool.run(waypointd, ["map", "import", extract, "--state-dir", state])
        #expect(imported.status == 0, "\(imported.standardError)")
        let screenshots = ProcessInfo.processInfo.environment["WAYPOINT_SCREENSHOTS"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("companion-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let output = try Self.python(
            "browser_test.py",
            [
                "--base", companion.base, "--pair-url", try companion.pairingLink(), "--socket", daemon.socket,
                "--screenshots", screenshots, "--gpx",
                TestData.packageRoot.appendingPathComponent("Tests/GPXTests/Data/gpxpy/route.gpx").path, "--words",
                TestData.packageRoot.appendingPathComponent("Tests/ClientSupportTests/Data/words.tsv").path,
                "--daemon-pid", String(daemon.process.processID), "--web-pid", String(companion.process.processID),
                "--web-command", String(decoding: try JSONSerialization.data(withJSONObject: companion.commandLine), as: UTF8.self),
                "--web", companion.binary.path, "--web-args", "--state-dir \(companion.state.path) --config \(companion.configuration)",
            ])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(!output.standardOutput.contains("FAIL"), "\(output.standardOutput)")
    }

    @Test("every attack is refused and bounded; the web process killed leaves the daemon and the motor guiding")
    func underAttack() async throws {
        let daemon = try await SimulatedDaemon()
        let companion = try await Companion(daemon: daemon)
        defer { _ = daemon.stop() }
        // Monaco's map, for the paired client's searches during the flood.
        let waypointd = try ExternalTool.built("waypointd")
        let state = URL(fileURLWithPath: daemon.socket).deletingLastPathComponent().appendingPathComponent("state").path
        let extract = TestData.packageRoot.appendingPathComponent("Tests/PlaceIndexTests/Data/monaco.osm.pbf").path
        let imported = try ExternalTool.run(waypointd, ["map", "import", extract, "--state-dir", state])
        #expect(imported.status == 0, "\(imported.standardError)")
        let token = try companion.run(["token", "--json", "--name", "security test"])
        #expect(token.status == 0, "\(token.standardError)")
        let bearer = try #require(
            (try JSONSerialization.jsonObject(with: Data(token.standardOutput.utf8)) as? [String: String])?["token"])
        let output = try Self.python(
            "security_test.py",
            [
                "--base", companion.base, "--pair-url", try companion.pairingLink(), "--second-pair-url", try companion.pairingLink(),
                "--bearer", bearer, "--socket", daemon.socket, "--web", companion.binary.path,
                "--web-args", "--state-dir \(companion.state.path) --config \(companion.configuration)",
                "--web-pid", String(companion.process.processID),
            ])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(!output.standardOutput.contains("FAIL"), "\(output.standardOutput)")

        // The sessions command lists the phone paired and the script's token; revoke ends one.
        let listed = try companion.run(["sessions", "--json"])
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(Set(sessions.compactMap { $0["kind"] as? String }) == ["phone", "script"], "\(sessions)")
        #expect(sessions.count == 3, "two phones and the test's script; the revoked script is gone: \(sessions)")

        // Guiding, then the web process killed outright: the daemon keeps guiding and the motor
        // keeps answering.
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        _ = try await daemon.waitForStatus(client, seconds: 15) { $0["state"] as? String == "guiding" }
        kill(companion.process.processID, SIGKILL)
        _ = companion.process.waitForExit()
        var duties: Set<String> = []
        for _ in 0..<40 {
            duties.insert(daemon.dutyNanoseconds)
            try await Task.sleep(for: .milliseconds(100))
        }
        let status = try #require(daemon.client().request(#"{"cmd":"status"}"#))
        #expect(status["state"] as? String == "guiding", "\(status)")
        #expect(duties.count > 1, "the motor kept pulsing: \(duties)")
        let id = try #require(sessions.first?["id"] as? String)
        #expect(try companion.run(["revoke", id]).status == 0)
        #expect(try companion.run(["revoke", id]).status == 66)
    }
}
