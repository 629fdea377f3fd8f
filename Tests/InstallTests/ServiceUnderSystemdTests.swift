import Foundation
import TestSupport
import Testing

/// waypointd.service and waypointd.socket, as checked in, run by systemd 252 as PID 1 of private
/// namespaces (`scripts/service-under-systemd.sh`): the daemon is `waypointd --simulate` on a fake
/// sysfs PWM tree. Checks READY, a watchdog kill and restart after a hang, and that
/// `ExecStopPost=` (`waypointd motor-off`) leaves the motor off after the kill and after a stop.
///
/// The changes the test environment forces are one drop-in, written by the script: `--simulate`
/// and `--sysfs-root` on `ExecStart=` and `ExecStopPost=`, and `ReadWritePaths=` for the fake tree
/// (it is not below /sys/devices/platform). Everything else is the units' own text.
///
/// Needs root. Missing tools skip locally and fail under CI; a machine that cannot host a
/// private systemd (no namespaces, no cgroup2, mounts refused: the script's status 77) skips in
/// both cases, with the reason printed.
@Suite("waypointd.service under a private systemd", .timeLimit(.minutes(15)))
struct ServiceUnderSystemdTests {
    static let script = TestData.packageRoot.appendingPathComponent("scripts/service-under-systemd.sh")

    /// One private systemd, driven through the script.
    struct PrivateSystemd {
        let bash: URL
        let work: URL

        func script(_ arguments: [String]) throws -> ExternalTool.Output {
            try ExternalTool.run(bash, [ServiceUnderSystemdTests.script.path] + arguments)
        }

        /// A command run inside the namespaces.
        @discardableResult
        func run(_ command: String...) throws -> ExternalTool.Output {
            try script(["in", work.path] + command)
        }

        /// `systemctl show` of waypointd.service, as a dictionary.
        func service() throws -> [String: String] {
            let shown = try run(
                "systemctl", "show", "-p", "ActiveState,SubState,Result,StatusText,MainPID,NRestarts",
                "waypointd.service")
            var properties: [String: String] = [:]
            for line in shown.standardOutput.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            return properties
        }

        /// Everything systemd and the daemon logged, for failure messages.
        func journal() -> String {
            (try? run("journalctl", "--no-pager", "-o", "short-monotonic").standardOutput) ?? "(no journal)"
        }

        /// An attribute of the fake PWM channel, e.g. `duty_cycle`.
        func pwm(_ attribute: String) -> String {
            let file = work.appendingPathComponent("sysfs/sys/class/pwm/pwmchip0/pwm0/\(attribute)")
            return ((try? String(contentsOf: file, encoding: .utf8)) ?? "?").trimmingCharacters(
                in: .whitespacesAndNewlines)
        }

        /// Drives the motor as if the daemon had left it running: duty half the period, enabled.
        func forceMotorOn() throws {
            let channel = work.appendingPathComponent("sysfs/sys/class/pwm/pwmchip0/pwm0")
            let period = UInt64(pwm("period")) ?? 0
            try "\(period / 2)\n".write(
                to: channel.appendingPathComponent("duty_cycle"), atomically: false, encoding: .utf8)
            try "1\n".write(to: channel.appendingPathComponent("enable"), atomically: false, encoding: .utf8)
        }

        var motorIsOff: Bool { pwm("duty_cycle") == "0" && pwm("enable") == "0" }
        var motor: String { "duty_cycle \(pwm("duty_cycle")), enable \(pwm("enable"))" }
    }

    /// Polls `condition` every 50 ms until it holds; the time that took, or nil at `limit`.
    static func waitFor(_ limit: Duration, _ condition: () throws -> Bool) async throws -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            if try condition() { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The tools a private systemd needs, and the daemon; nil (after saying why) to skip.
    static func prerequisites() throws -> (bash: URL, waypointd: URL) {
        let hint = "apt-get install systemd util-linux (scripts/deps.sh)"
        let bash = try ExternalTool.find("bash", hint: "apt-get install bash")
        _ = try ExternalTool.find("systemd", hint: hint, extraDirectories: ["/lib/systemd", "/usr/lib/systemd"])
        _ = try ExternalTool.find("unshare", hint: hint, extraDirectories: ["/usr/bin"])
        _ = try ExternalTool.find("nsenter", hint: hint, extraDirectories: ["/usr/bin"])
        _ = try ExternalTool.find("findmnt", hint: hint, extraDirectories: ["/usr/bin"])
        _ = try ExternalTool.find("systemd-sysusers", hint: hint)
        _ = try ExternalTool.find("journalctl", hint: hint)
        let waypointd = try ExternalTool.built("waypointd")
        guard getuid() == 0 else { try skip("a private systemd needs root (namespaces, mounts, cgroups)") }
        return (bash, waypointd)
    }

    @Test("no IMU at start: active for 60 s without a restart, the problem in status, and the board picked up when it answers")
    func noIMUUnderSystemd() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let (bash, waypointd) = try Self.prerequisites()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("systemd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let systemd = PrivateSystemd(bash: bash, work: work)
        defer {
            _ = try? systemd.script(["down", work.path])
            try? FileManager.default.removeItem(at: work)
        }
        let up = try systemd.script(["up", work.path, waypointd.path])
        if up.status == 77 { try skip(up.standardError.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(up.status == 0, "\(up.standardError)")
        // The simulated board does not answer until 25 s: what a loose cable or the wrong bus
        // looks like to the daemon. A drop-in after the script's adds the events file, by the
        // path the work directory has inside the namespaces (the script's `inside`).
        let sysfs = work.appendingPathComponent("sysfs")
        try "0 imu-off\n25 imu-on\n".write(to: sysfs.appendingPathComponent("events.txt"), atomically: true, encoding: .utf8)
        try """
            [Service]
            ExecStart=
            ExecStart=/usr/local/bin/waypointd --config /etc/waypointd/waypointd.conf --simulate --sysfs-root /run/waypoint-test/sysfs --simulate-events /run/waypoint-test/sysfs/events.txt

            """.write(
                to: work.appendingPathComponent("units/waypointd.service.d/zz-no-imu.conf"), atomically: true, encoding: .utf8)
        try #require(try systemd.run("systemctl", "daemon-reload").status == 0)
        let started = try systemd.run("systemctl", "start", "waypointd.socket", "waypointd.service")
        try #require(started.status == 0, "\(started.standardError)\n\(systemd.journal())")
        let startedAt = ContinuousClock.now
        // Inside the namespaces the work directory is /run/waypoint-test, and the build
        // directory may not be visible at all (a private /tmp): waypointctl goes in with it.
        try FileManager.default.copyItem(at: waypointctl, to: work.appendingPathComponent("waypointctl"))
        func status() throws -> String {
            let shown = try systemd.run("/run/waypoint-test/waypointctl", "--socket", "/run/waypointd/control.sock", "status")
            return shown.standardOutput + shown.standardError
        }
        let early = try status()
        #expect(early.contains("problem: imu: "), "\(early)\n\(systemd.journal())")
        var sawGuidanceReady = false
        while ContinuousClock.now - startedAt < .seconds(62) {
            let service = try systemd.service()
            #expect(service["ActiveState"] == "active" && service["NRestarts"] == "0", "\(service)\n\(systemd.journal())")
            if service["NRestarts"] != "0" { break }
            if !sawGuidanceReady, ContinuousClock.now - startedAt > .seconds(40) {
                let later = try status()
                sawGuidanceReady = !later.contains("problem: imu: ") && later.contains("imu: ")
            }
            try await Task.sleep(for: .seconds(5))
        }
        let last = (try? status()) ?? "(no status)"
        #expect(sawGuidanceReady, "the board was not picked up after it answered: \(last)\n\(systemd.journal())")
        #expect(try systemd.run("systemctl", "stop", "waypointd.service").status == 0)
        #expect(systemd.motorIsOff, "\(systemd.motor)")
    }

    @Test("READY, a watchdog kill and restart after a hang, and the motor off after the kill and after a stop")
    func readyWatchdogAndMotorOff() async throws {
        let (bash, waypointd) = try Self.prerequisites()

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("systemd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let systemd = PrivateSystemd(bash: bash, work: work)
        defer {
            _ = try? systemd.script(["down", work.path])
            try? FileManager.default.removeItem(at: work)
        }

        let clock = ContinuousClock()
        let up = try systemd.script(["up", work.path, waypointd.path])
        if up.status == 77 { try skip(up.standardError.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(up.status == 0, "\(up.standardError)")

        // READY: `systemctl start` of a Type=notify service returns once READY=1 arrived.
        let startedAt = clock.now
        let started = try systemd.run("systemctl", "start", "waypointd.socket", "waypointd.service")
        let timeToReady = clock.now - startedAt
        try #require(started.status == 0, "\(started.standardError)\n\(systemd.journal())")
        let ready = try systemd.service()
        #expect(ready["ActiveState"] == "active" && ready["SubState"] == "running", "\(ready)\n\(systemd.journal())")
        #expect(ready["StatusText"]?.isEmpty == false, "\(ready)")
        #expect(try systemd.run("test", "-S", "/run/waypointd/control.sock").status == 0)
        // The sandbox let the daemon configure the channel (through ReadWritePaths=).
        #expect((UInt64(systemd.pwm("period")) ?? 0) > 0, "period \(systemd.pwm("period"))\n\(systemd.journal())")
        print("waypointd.service: READY \(Self.seconds(timeToReady)) after systemctl start")

        // A hang: the main process stops, with the motor running. WatchdogSec=5s kills it,
        // ExecStopPost= switches the motor off, Restart=on-failure starts it again.
        let hungPID = try #require(ready["MainPID"])
        let stopped = try systemd.run("systemctl", "kill", "--kill-who=main", "--signal=SIGSTOP", "waypointd.service")
        try #require(stopped.status == 0, "\(stopped.standardError)")
        let hungAt = clock.now
        try systemd.forceMotorOn()
        var results: Set<String> = []
        var motorOffAfter: Duration?
        let restartedAfter = try await Self.waitFor(.seconds(30)) {
            if motorOffAfter == nil, systemd.motorIsOff { motorOffAfter = clock.now - hungAt }
            let state = try systemd.service()
            if let result = state["Result"] { results.insert(result) }
            return state["NRestarts"] == "1" && state["SubState"] == "running" && state["MainPID"] != hungPID
                && state["MainPID"] != "0"
        }
        #expect(results.contains("watchdog"), "results seen: \(results)\n\(systemd.journal())")
        #expect(restartedAfter != nil, "no restart within 30 s of the hang\n\(systemd.journal())")
        #expect(motorOffAfter != nil, "motor on after the watchdog kill: \(systemd.motor)\n\(systemd.journal())")
        if let motorOffAfter, let restartedAfter {
            // The watchdog fires at most WatchdogSec=5s after the last ping. A debug build
            // survives its SIGABRT (the Swift runtime's backtracer cannot start under
            // MemoryDenyWriteExecute= and the process waits in sigsuspend), so it is killed by
            // SIGKILL TimeoutStopSec=5s later; a static release build dies of the SIGABRT.
            #expect(motorOffAfter <= .seconds(13), "\(systemd.journal())")
            #expect(motorOffAfter <= restartedAfter)
            print(
                "waypointd.service: hang → motor off \(Self.seconds(motorOffAfter)), → restarted \(Self.seconds(restartedAfter))"
            )
        }

        // A stop, again with the motor running (the daemon may switch it off itself on SIGTERM;
        // ExecStopPost= does in any case): off afterwards; no restart; the socket stays.
        try #require(
            try systemd.run("systemctl", "kill", "--kill-who=main", "--signal=SIGSTOP", "waypointd.service").status == 0
        )
        try systemd.forceMotorOn()
        let stop = try systemd.run("systemctl", "stop", "waypointd.service")
        #expect(stop.status == 0, "\(stop.standardError)")
        let afterStop = try systemd.service()
        #expect(afterStop["ActiveState"] == "inactive", "\(afterStop)\n\(systemd.journal())")
        #expect(afterStop["NRestarts"] == "1", "\(afterStop)")
        #expect(systemd.motorIsOff, "motor on after the stop: \(systemd.motor)\n\(systemd.journal())")
        #expect(try systemd.run("systemctl", "is-active", "waypointd.socket").status == 0)
        #expect(try systemd.run("test", "-S", "/run/waypointd/control.sock").status == 0)
    }
}
