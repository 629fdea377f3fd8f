import Foundation
import Testing
import TestSupport

/// What `status` tells the wearer's helper when the heading cannot be trusted, on the real
/// daemon (simulated board) and the real `waypointctl` (issue 30, items 1 and 2): no heading
/// that is not being measured, no turn from a heading the daemon calls unreliable, and the
/// problem named with what to do.
@Suite("Status says only what is true", .timeLimit(.minutes(10)))
struct StatusTruthTests {
    static func ctl(_ waypointctl: URL, _ daemon: SimulatedDaemon, _ words: String...) throws -> ExternalTool.Output {
        try ExternalTool.run(waypointctl, words + ["--socket", daemon.socket])
    }

    @Test("the IMU stops answering while guiding: no heading shown, not reliable, no turn, and the problem named")
    func imuLost() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon(events: "5 imu-off\n")
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let lost = try await daemon.waitForStatus(client, seconds: 15) {
            $0["state"] as? String == "no-heading" && ($0["problems"] as? [String])?.isEmpty == false
        }
        let status = try #require(lost, "the lost IMU was never named: \(daemon.log)")
        let heading = try #require(status["heading"] as? [String: Any])
        #expect(heading["reliable"] as? Bool == false, "\(status)")
        #expect(heading["true"] is NSNull, "a heading nobody measures: \(status)")
        #expect(heading["problem"] as? String == "no-imu", "\(status)")
        #expect(status["error"] is NSNull, "a turn from a heading nobody measures: \(status)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.contains { $0.hasPrefix("imu: not answering for ") }, "\(problems)")

        let text = try Self.ctl(waypointctl, daemon, "status")
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("heading: unknown (no IMU)"), "\(text.standardOutput)")
        #expect(lines.contains("turn: unknown"), "\(text.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("problem: imu: not answering for ") }, "\(text.standardOutput)")
    }

    @Test("after calibrate reset: no turn from the uncalibrated heading, and the remedy is named")
    func notCalibrated() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        #expect(try Self.ctl(waypointctl, daemon, "calibrate", "reset").status == 0)
        let reset = try await daemon.waitForStatus(client, seconds: 5) {
            ($0["heading"] as? [String: Any])?["problem"] as? String == "not-calibrated"
        }
        let status = try #require(reset, "\(daemon.log)")
        #expect(status["error"] is NSNull, "a turn from an uncalibrated heading: \(status)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.contains("compass: not calibrated; run: waypointctl calibrate start"), "\(problems)")

        let text = try Self.ctl(waypointctl, daemon, "status")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("heading: unknown (not calibrated)"), "\(text.standardOutput)")
        #expect(lines.contains("turn: unknown"), "\(text.standardOutput)")
        #expect(lines.contains("problem: compass: not calibrated; run: waypointctl calibrate start"), "\(text.standardOutput)")
    }

    @Test("after the daemon stalled 5 s, a watcher gets the latest state once, not every line it missed (issue 30, item 17)")
    func watcherAfterStall() async throws {
        let daemon = try await SimulatedDaemon()
        defer { _ = daemon.stop() }
        let watcher = try ControlClient(path: daemon.socket, receiveTimeoutSeconds: 1)
        #expect(watcher.receive()?["class"] as? String == "VERSION")
        watcher.send(#"{"cmd":"watch","enable":true,"hz":2}"#)
        for _ in 0..<3 { _ = watcher.receive() }
        kill(daemon.process.processID, SIGSTOP)
        try await Task.sleep(for: .seconds(4))
        // Lines sent before the stop are still in the socket: take them now, so that every line
        // read after the resume was written after it (receive gives up after 1 s of silence).
        while watcher.receive() != nil {}
        kill(daemon.process.processID, SIGCONT)
        // How soon the resumed daemon answers depends on the machine's load (a debug build
        // catching up 5 s of simulated samples); what matters is that its first answer comes
        // alone, the next one a full period (0.5 s) later, not the ten it missed at once.
        var first: ContinuousClock.Instant?
        for _ in 0..<10 where first == nil {
            if watcher.receive()?["class"] as? String == "STATUS" { first = .now }
        }
        let resumed = try #require(first, "no STATUS line after the resume: \(daemon.log)")
        var burst = 1
        while ContinuousClock.now - resumed < .milliseconds(250), let line = watcher.receive() {
            if line["class"] as? String == "STATUS", ContinuousClock.now - resumed < .milliseconds(250) { burst += 1 }
        }
        #expect(burst == 1, "\(burst) STATUS lines within 0.25 s of the first after the resume")
    }
}
