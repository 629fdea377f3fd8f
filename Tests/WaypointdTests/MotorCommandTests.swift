import Foundation
import Testing
import TestSupport

/// `waypointd motor-test` and `motor-off` as processes, on a sysfs tree in a temporary
/// directory, through the real file operations.
@Suite("waypointd motor-test and motor-off", .timeLimit(.minutes(10)))
struct MotorCommandTests {
    static func motorIsOn(_ tree: PWMSysfsTree) -> Bool {
        (tree.value("pwmchip0/pwm0/duty_cycle") ?? "0") != "0" && tree.value("pwmchip0/pwm0/enable") == "1"
    }

    @Test("SIGTERM or SIGINT while the motor runs: the tree shows duty 0 and enable 0 afterwards", arguments: [SIGTERM, SIGINT])
    func signalStopsMotor(signal: Int32) async throws {
        let waypointd = try ExternalTool.built("waypointd")
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

    @Test(
        "SIGINT from the first millisecond after exec to after the motor started, 200 times in a row: every run ends at once with the motor off (issue 37)",
        .timeLimit(.minutes(10)))
    func signalAtStart() async throws {
        let waypointd = try #require(try ExternalTool.built("waypointd"))
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 0, dutyNanoseconds: 0)
        let arguments = ["motor-test", "--repeat", "--sysfs-root", tree.root.path]
        // The delays cover the loader, main, the signal thread's start and the first pulse: up to
        // twice the time the motor takes to start here (about 7 ms in a debug build on an idle
        // machine, several times that beside another make test).
        let startup = try await StartupTime.measure(stoppingWith: SIGINT) {
            let process = try ChildProcess(waypointd, arguments)
            return (process, { Self.motorIsOn(tree) })
        }
        var outcomes: [String: Int] = [:]
        for run in 0..<200 {
            let delayMicroseconds = StartupTime.delay(run: run, startup: startup)
            let process = try ChildProcess(waypointd, arguments)
            usleep(delayMicroseconds)
            kill(process.processID, SIGINT)
            let status = process.waitForExit(within: .seconds(5))
            let errors = process.errors.map(\.text)
            try #require(status != nil, "run \(run), SIGINT after \(delayMicroseconds) µs: still running 5 s later: \(errors)")
            // Taken (0, the motor switched off) or, before main blocked it, the default action.
            #expect(status == 0 || status == 128 + SIGINT, "run \(run): exit \(status!): \(errors)")
            #expect(!Self.motorIsOn(tree), "run \(run): the motor was left on")
            outcomes[status == 0 ? "taken" : "before main", default: 0] += 1
        }
        print("SIGINT at start, 200 runs, the motor on \(startup) after exec: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["taken", default: 0] >= 80, "too few runs reached main to test the signal thread: \(outcomes)")
    }

    @Test("motor-off from a fresh process stops a motor left running")
    func motorOff() throws {
        let waypointd = try ExternalTool.built("waypointd")
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
        let waypointd = try ExternalTool.built("waypointd")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-pwm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for command in ["motor-off", "motor-test"] {
            let output = try ExternalTool.run(waypointd, [command, "--sysfs-root", empty.path])
            #expect(output.status == 1, "\(command)")
            #expect(
                output.standardError.contains("no PWM chip 'auto' in \(empty.path)/sys/class/pwm; chips present: none\n"),
                "\(output.standardError)")
        }
        let usage = try ExternalTool.run(waypointd, ["motor-off", "--pwm-channel", "x"])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--pwm-channel needs a channel number"))
        let help = try ExternalTool.run(waypointd, ["motor-test", "--help"])
        #expect(help.status == 0 && help.standardOutput.hasPrefix("usage: waypointd motor-test"))
    }

    @Test("motor-off reads the chip and channel from --config, as systemd's ExecStopPost runs it; a bad config is exit 78")
    func motorOffFromConfig() throws {
        let waypointd = try ExternalTool.built("waypointd")
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

/// Issue 16, item 6: one owner for the motor while the daemon runs.
@Suite("One motor owner", .timeLimit(.minutes(10)))
struct MotorOwnerTests {
    @Test("motor-test refuses while the daemon drives the motor, naming it (exit 75)")
    func motorTestRefused() async throws {
        let daemon = try await SimulatedDaemon()
        let waypointd = try ExternalTool.built("waypointd")
        #expect(try daemon.client().request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let test = try ExternalTool.run(waypointd, ["motor-test", "--sysfs-root", daemon.tree.root.path, "--pwm-chip", "pwmchip0"])
        #expect(test.status == 75, "\(test.standardError)")
        #expect(test.standardError.contains("the motor is driven by process \(daemon.process.processID) (waypointd)"), "\(test.standardError)")
        // Issue 30, item 11: the daemon on another socket than motor-off asks: the message names
        // the socket tried and the option.
        let elsewhere = try ExternalTool.run(
            waypointd, ["motor-off", "--sysfs-root", daemon.tree.root.path, "--pwm-chip", "pwmchip0", "--socket", "/nonexistent/control.sock"])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.standardError.contains("asking it to mute on /nonexistent/control.sock failed"), "\(elsewhere.standardError)")
        #expect(elsewhere.standardError.contains("give its --socket PATH"), "\(elsewhere.standardError)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("motor-off while the daemon guides asks it to mute; with --force it writes, and the daemon notices and recovers")
    func motorOffAsksThenForces() async throws {
        let daemon = try await SimulatedDaemon()
        let waypointd = try ExternalTool.built("waypointd")
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let common = ["--sysfs-root", daemon.tree.root.path, "--pwm-chip", "pwmchip0", "--socket", daemon.socket]
        let asked = try ExternalTool.run(waypointd, ["motor-off"] + common)
        #expect(asked.status == 0, "\(asked.standardError)")
        #expect(asked.standardOutput.contains("asked it to mute"), "\(asked.standardOutput)")
        #expect(client.request(#"{"cmd":"status"}"#)?["muted"] as? Bool == true)
        #expect(client.request(#"{"cmd":"mute","on":false}"#)?["class"] as? String == "OK")

        // Forced: the channel is written under the daemon, which finds it changed (within about
        // a second of reading it back), reports it, and sets it up again.
        let forced = try ExternalTool.run(waypointd, ["motor-off", "--force"] + common)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.standardError.contains("forcing the channel off"), "\(forced.standardError)")
        let noticed = try await daemon.waitForStatus(client, seconds: 5) { status in
            (status["problems"] as? [String])?.contains { $0.contains("another program is driving the motor") } == true
        }
        #expect(noticed != nil, "the daemon never noticed; \(daemon.log)")
        let recovered = try await daemon.waitForStatus(client, seconds: 10) { ($0["problems"] as? [String]) == [] }
        #expect(recovered != nil, "\(daemon.log)")
        #expect(daemon.tree.value("pwmchip0/pwm0/enable") == "1", "the daemon set its channel up again")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        // Gone: the lock went with it, and motor-off forces the channel off as ExecStopPost does.
        let after = try ExternalTool.run(waypointd, ["motor-off"] + common)
        #expect(after.status == 0, "\(after.standardError)")
        #expect(daemon.tree.value("pwmchip0/pwm0/enable") == "0")
    }
}
