import Foundation
import Testing
import TestSupport

/// What a new user trips on first (issue 30, items 9 to 11), on the built programs.
@Suite("A newcomer's first steps", .timeLimit(.minutes(10)))
struct NewcomerTests {
    @Test("waypointd --simulate with no --sysfs-root runs: it makes its own motor tree in the state directory")
    func simulateAlone() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let waypointctl = try ExternalTool.built("waypointctl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let state = directory.appendingPathComponent("state").path
        let daemon = try ChildProcess(waypointd, ["--simulate", "--socket", socket, "--state-dir", state])
        let up = await SimulatedDaemon.waitForSocket(socket)
        #expect(up, "\(daemon.errors.map(\.text))")
        let buzz = try ExternalTool.run(waypointctl, ["buzz", "--socket", socket])
        #expect(buzz.status == 0, "\(buzz.standardError)")
        kill(daemon.processID, SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.errors.map(\.text))")
        let duty = try String(contentsOfFile: state + "/simulated-sysfs/sys/class/pwm/pwmchip0/pwm0/duty_cycle", encoding: .utf8)
        #expect(duty.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the motor left on: \(duty)")
        let period = try String(contentsOfFile: state + "/simulated-sysfs/sys/class/pwm/pwmchip0/pwm0/period", encoding: .utf8)
        #expect(period.trimmingCharacters(in: .whitespacesAndNewlines) != "0", "the motor was never set up")
    }

    @Test("an empty --sysfs-root: the message names the directory searched, with no Raspberry Pi advice")
    func emptySysfsRoot() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try ExternalTool.run(
            waypointd,
            ["--simulate", "--socket", directory.path + "/s", "--state-dir", directory.path + "/state", "--sysfs-root", directory.path])
        #expect(output.status == 69)
        #expect(output.standardError.contains("no PWM chip 'auto' in \(directory.path)/sys/class/pwm; chips present: none"), "\(output.standardError)")
        #expect(!output.standardError.contains("config.txt"), "\(output.standardError)")
    }
}
