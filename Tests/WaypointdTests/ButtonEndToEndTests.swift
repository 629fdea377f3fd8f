import Foundation
import Testing
import TestSupport

/// The button and the voice, all real but the button itself (issue 42): `waypointd --simulate`
/// with `press …` in its script (records written into a pipe, as the kernel writes them, and
/// read by the daemon's own reader and recogniser), a `speech` command that records what it is
/// given, the built `waypoint-web` and its event stream read by curl, and waypointctl.
@Suite("A button and a voice, end to end", .timeLimit(.minutes(5)))
struct ButtonEndToEndTests {
    /// Waits until the daemon has logged the script's event, then `extra` seconds more.
    static func waitForEvent(_ daemon: SimulatedDaemon, _ event: String, seconds: Double = 30) async throws {
        let done = await daemon.process.wait(timeout: .milliseconds(Int64(seconds * 1000))) { _, errors in
            errors.contains { $0.text.contains("simulation event=\"\(event)\"") }
        }
        try #require(done, "no \(event) in \(seconds) s: \(daemon.log)")
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass.
    static func poll(seconds: Double, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return condition()
    }

    @Test("single: said through the speech command, in STATUS, in the companion's stream; long pauses (motor at 0) and resumes; very long marks the place")
    func gesturesEndToEnd() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waypointd-said-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = directory.appendingPathComponent("said").path
        let daemon = try await SimulatedDaemon(
            configuration: "speech cat >> \(said)\n",
            events: "8 press single\n12 press long\n20 press long\n24 press very-long\n")
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")

        // The companion's event stream, as a paired phone's page follows it.
        let companion = try await CompanionEndToEndTests.Companion(daemon: daemon)
        let made = try companion.run(["token", "--name", "button-test", "--json"])
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(made.standardOutput.utf8)) as? [String: String])?["token"], "\(made.standardError)")
        let curl = try ExternalTool.find("curl", hint: "apt-get install curl")
        let stream = try ChildProcess(curl, ["-sN", "-H", "Authorization: Bearer \(token)", "\(companion.base)/api/events"])
        defer { stream.terminate() }

        // Single: where I am and the destination, spoken and shown.
        try await Self.waitForEvent(daemon, "press single")
        let expected = try #require(
            try await daemon.waitForStatus(client, seconds: 5) { ($0.object("said")?["text"] as? String) != nil }?.object("said")?["text"] as? String)
        #expect(expected.contains("far is 300 metres away, at "), "\(expected)")
        #expect(expected.hasSuffix(" o'clock."), "\(expected)")
        let spoken = await Self.poll(seconds: 5) { (try? String(contentsOfFile: said, encoding: .utf8)) == expected + "\n" }
        #expect(spoken, "the speech command was given: \((try? String(contentsOfFile: said, encoding: .utf8)) ?? "nothing")")
        let streamed = await stream.wait(timeout: .seconds(5)) { output, _ in output.contains { $0.text.contains(expected) } }
        #expect(streamed, "the companion's stream carries the sentence: \(stream.output.suffix(3).map(\.text)) \(stream.errors.map(\.text))")

        // Long: paused; the motor stays at 0 until the next long press resumes.
        try await Self.waitForEvent(daemon, "press long")
        #expect(try await daemon.waitForStatus(client, seconds: 3) { $0["muted"] as? Bool == true } != nil)
        // The paused pattern plays out (0.65 s), then nothing for the next 3 s.
        try await Task.sleep(for: .milliseconds(1000))
        var duties: Set<String> = []
        for _ in 0..<30 {
            duties.insert(daemon.dutyNanoseconds)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(duties == ["0"], "the motor is silent while paused: \(duties)")
        let resumed = try await daemon.waitForStatus(client, seconds: 10) { $0["muted"] as? Bool == false }
        #expect(resumed?.object("said")?["text"] as? String == "Guidance resumed.")
        let paused = try String(contentsOfFile: said, encoding: .utf8)
        #expect(paused.contains("Guidance paused. Hold again to resume.\nGuidance resumed.\n"), "\(paused)")

        // Very long: the place is marked, under a name the wearer can find again.
        try await Self.waitForEvent(daemon, "press very-long")
        let marked = try await daemon.waitForStatus(client, seconds: 5) { ($0.object("said")?["text"] as? String)?.hasPrefix("Marked this place as Mark ") == true }
        #expect(marked != nil, "\(daemon.log)")
        let places = try #require(client.request(#"{"cmd":"place"}"#)?["places"] as? [[String: Any]])
        #expect(places.contains { ($0["name"] as? String)?.hasPrefix("Mark ") == true }, "\(places)")
    }

    @Test("on a paired phone in Chromium: each sentence announced once in the polite region, found there in the accessibility tree")
    func onThePhonesScreenReader() async throws {
        // Two triples before anything was said: the same words twice, two sentences.
        let daemon = try await SimulatedDaemon(configuration: "speech none\n", events: "25 press triple\n35 press triple\n")
        defer { _ = daemon.stop() }
        let companion = try await CompanionEndToEndTests.Companion(daemon: daemon)
        let screenshots = ProcessInfo.processInfo.environment["WAYPOINT_SCREENSHOTS"]
        let output = try CompanionEndToEndTests.python(
            "said_test.py",
            ["--pair-url", try companion.pairingLink(), "--text", "Nothing was said yet.", "--times", "2"]
                + (screenshots.map { ["--screenshots", $0] } ?? []))
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("said 2 times, announced 2 times"), "\(output.standardOutput)")
    }

    @Test("without a voice a single press plays the clock pattern; button test shows a double and does nothing")
    func withoutAVoice() async throws {
        let daemon = try await SimulatedDaemon(configuration: "speech none\n", events: "8 press single\n16 press double\n")
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        try await Self.waitForEvent(daemon, "press single")
        let playing = try await daemon.waitForStatus(client, seconds: 3) { $0.object("haptic")?["pattern"] as? String == "clock" }
        #expect(playing != nil, "the clock pattern plays: \(daemon.log)")
        #expect(playing?.object("said")?["text"] as? String != nil, "shown all the same, for a paired phone")

        // waypointctl button test: the double is printed and confirmed, not carried out.
        let waypointctl = try ExternalTool.built("waypointctl")
        let test = try ChildProcess(waypointctl, ["--socket", daemon.socket, "button", "test", "--seconds", "12"])
        defer { test.terminate() }
        let shown = await test.wait(timeout: .seconds(15)) { output, _ in output.contains { $0.text == "pressed: double" } }
        #expect(shown, "\(test.output.map(\.text)) \(test.errors.map(\.text))")
        #expect(test.output.first?.text.hasPrefix("button test for 12 s") == true)
        #expect(test.output.contains { $0.text == "device simulated (simulated button): read" }, "\(test.output.map(\.text))")
        kill(test.processID, SIGINT)
        #expect(test.waitForExit() == 0)
        #expect(test.output.last?.text == "button test ended: the button acts again")
        // A fresh connection: the first one idled past the daemon's 10 s.
        let status = try #require(try daemon.client().request(#"{"cmd":"status"}"#))
        #expect(status.object("button")?["testing"] as? Bool == false, "ended with the command")
        #expect(status.object("said")?["text"] as? String == playing?.object("said")?["text"] as? String, "the double said nothing")
    }
}
