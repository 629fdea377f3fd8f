import Foundation
import Testing
import TestSupport

/// `waypointd motor-test` and `motor-off` as processes, on a sysfs tree in a temporary
/// directory, through the real file operations.
@Suite("waypointd motor-test and motor-off")
struct MotorCommandTests {
    static func motorIsOn(_ tree: PWMSysfsTree) -> Bool {
        (tree.value("pwmchip0/pwm0/duty_cycle") ?? "0") != "0" && tree.value("pwmchip0/pwm0/enable") == "1"
    }

    @Test("SIGTERM or SIGINT while the motor runs: the tree shows duty 0 and enable 0 afterwards", arguments: [SIGTERM, SIGINT])
    func signalStopsMotor(signal: Int32) async throws {
        guard let waypointd = try ExternalTool.built("waypointd") else { return }
        let tree = try PWMSysfsTree()
        // As the kernel leaves a freshly exported channel (the daemon reuses it).
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 0, dutyNanoseconds: 0)
        let process = try ChildProcess(waypointd, ["motor-test", "--repeat", "--sysfs-root", tree.root.path])
        defer { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(10)
        // Judged on the read that saw it on: a second read of these ordinary files can land
        // between the daemon's truncate and its write and see neither value.
        var started = Self.motorIsOn(tree)
        while !started && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            started = Self.motorIsOn(tree)
        }
        try #require(started, "the motor never started: \(process.errors.map(\.text))")
        #expect(tree.value("pwmchip0/pwm0/period") == "40000")
        kill(process.processID, signal)
        #expect(process.waitForExit() == 0)
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm0/enable") == "0")
        #expect(process.errors.contains { $0.text.contains("switching the motor off") })
    }

    @Test("motor-off from a fresh process stops a motor left running")
    func motorOff() throws {
        guard let waypointd = try ExternalTool.built("waypointd") else { return }
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 2, periodNanoseconds: 40_000, dutyNanoseconds: 30_000)
        let output = try ExternalTool.run(
            waypointd, ["motor-off", "--pwm-chip", "1f00098000.pwm", "--pwm-channel", "2", "--sysfs-root", tree.root.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(tree.value("pwmchip0/pwm2/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm2/enable") == "0")
    }

    @Test("problems are reported with their reason and a non-zero status")
    func problems() throws {
        guard let waypointd = try ExternalTool.built("waypointd") else { return }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-pwm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for command in ["motor-off", "motor-test"] {
            let output = try ExternalTool.run(waypointd, [command, "--sysfs-root", empty.path])
            #expect(output.status == 1, "\(command)")
            #expect(output.standardError.contains("no PWM chip 'auto' in /sys/class/pwm; chips present: none"), "\(output.standardError)")
        }
        let usage = try ExternalTool.run(waypointd, ["motor-off", "--pwm-channel", "x"])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--pwm-channel needs a channel number"))
        let help = try ExternalTool.run(waypointd, ["motor-test", "--help"])
        #expect(help.status == 0 && help.standardOutput.hasPrefix("usage: waypointd motor-test"))
    }

    @Test("motor-off reads the chip and channel from --config, as systemd's ExecStopPost runs it; a bad config is exit 78")
    func motorOffFromConfig() throws {
        guard let waypointd = try ExternalTool.built("waypointd") else { return }
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 2, periodNanoseconds: 40_000, dutyNanoseconds: 30_000)
        let config = tree.root.appendingPathComponent("waypointd.conf").path
        try "pwm-chip 1f00098000.pwm\npwm-channel 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let output = try ExternalTool.run(waypointd, ["motor-off", "--config", config, "--sysfs-root", tree.root.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(tree.value("pwmchip0/pwm2/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm2/enable") == "0")

        try "pwm-channel two\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try ExternalTool.run(waypointd, ["motor-off", "--config", config, "--sysfs-root", tree.root.path])
        #expect(bad.status == 78)
        #expect(bad.standardError.contains("\(config):1:"), "\(bad.standardError)")
    }
}
