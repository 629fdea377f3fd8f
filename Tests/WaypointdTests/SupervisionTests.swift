import Foundation
@preconcurrency import Glibc
import Synchronization
import Testing
import TestSupport

/// Issue 16, items 1, 2, 4 and 5: the real daemon on the simulated board, supervised as systemd
/// would (`NOTIFY_SOCKET`, `WATCHDOG_USEC`) with the datagrams it sends recorded and timed.
@Suite("Supervision and start-up warnings", .timeLimit(.minutes(10)))
struct SupervisionTests {
    /// What the daemon told "systemd", with when.
    final class Notifications: @unchecked Sendable {
        // @unchecked: the listener is used by the collecting thread only, after init.
        private let listener: NotifyListener
        private let messages = Mutex<[(at: ContinuousClock.Instant, text: String)]>([])
        private let stopping = Atomic(false)

        init() throws {
            listener = try NotifyListener()
            Thread { [self] in
                while !stopping.load(ordering: .relaxed) {
                    if let text = listener.receive() { messages.withLock { $0.append((.now, text)) } }
                }
            }.start()
        }

        var address: String { listener.address }
        func stop() { stopping.store(true, ordering: .relaxed) }

        /// When each `WATCHDOG=1` came.
        var pets: [ContinuousClock.Instant] {
            messages.withLock { $0.filter { $0.text.split(separator: "\n").contains("WATCHDOG=1") }.map(\.at) }
        }
        var isReady: Bool { messages.withLock { $0.contains { $0.text.split(separator: "\n").contains("READY=1") } } }

        /// The longest time between two pets, or from the first pet to `end`.
        func longestGap(until end: ContinuousClock.Instant) -> Duration {
            let times = pets + [end]
            return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .seconds(1000)
        }
    }

    @Test("no IMU at start: it stays up petting the watchdog at a third of its interval, says why, and guides once the board answers")
    func noIMUAtStart() async throws {
        let notifications = try Notifications()
        defer { notifications.stop() }
        let daemon = try await SimulatedDaemon(
            events: "0 imu-off\n15 imu-on\n",
            environment: ["NOTIFY_SOCKET": notifications.address, "WATCHDOG_USEC": "3000000"])
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let missing = try await daemon.waitForStatus(client, seconds: 5) { status in
            (status["problems"] as? [String])?.contains { $0.hasPrefix("imu: ") } == true
        }
        let status = try #require(missing, "status never named the missing IMU; \(daemon.log)")
        #expect(status.object("heading")?["problem"] as? String == "no-imu", "\(status)")
        #expect(status["state"] as? String == "no-heading")
        // 12 s without an IMU: never more than a third of WATCHDOG_USEC (1 s) between pets,
        // give or take the scheduler.
        try await Task.sleep(for: .seconds(10))
        #expect(daemon.process.isRunning)
        #expect(notifications.isReady)
        let gap = notifications.longestGap(until: .now)
        #expect(gap <= .milliseconds(1500), "the watchdog went \(gap) without a pet; \(daemon.log)")
        #expect(notifications.pets.count >= 10, "\(notifications.pets.count) pets")
        // Retried 1, 2, 4, 8 s apart: a handful of log lines, not one per attempt or per second.
        let complaints = daemon.process.errors.filter { $0.text.contains("no usable IMU") }
        #expect(complaints.count == 1, "\(complaints.map(\.text))")

        // The board answers at 15 s; the next attempt (at most 16 s after the last) picks it up.
        // A new connection: the first sat idle for the 10 s above, the daemon's idle timeout.
        let later = try daemon.client()
        let guiding = try await daemon.waitForStatus(later, seconds: 25) { $0["state"] as? String == "guiding" }
        #expect(guiding != nil, "not guiding after the IMU came; \(daemon.log)")
        #expect((guiding?["problems"] as? [String]) == [], "\(String(describing: guiding))")
        #expect(missing?["imu"] is NSNull, "no IMU, no imu object")
        let imu = try await daemon.waitForStatus(later, seconds: 3) { ($0.object("imu")?["chips"] as? String) != nil }
        #expect((imu?.object("imu")?["chips"] as? String)?.contains("magnetometer") == true, "\(String(describing: imu))")
        #expect(daemon.logged("imu in use") != nil, "which IMU is used is logged; \(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("a 2 s stall of the sampling thread leaves the watchdog petted in time; a 10 s one does not", arguments: [2, 10])
    func stall(seconds: Int) async throws {
        let notifications = try Notifications()
        defer { notifications.stop() }
        // WatchdogSec=5, as the unit has it.
        let daemon = try await SimulatedDaemon(
            events: "4 stall \(seconds)\n",
            environment: ["NOTIFY_SOCKET": notifications.address, "WATCHDOG_USEC": "5000000"])
        #expect(try daemon.client().request(SimulatedDaemon.far)?["class"] as? String == "OK")
        try await Task.sleep(for: .seconds(Double(seconds) + 7))
        let gap = notifications.longestGap(until: .now)
        if seconds == 2 {
            #expect(gap < .seconds(5), "a \(seconds) s stall left \(gap) between pets; \(daemon.log)")
        } else {
            #expect(gap > .seconds(5), "a hung loop must go unpetted: \(gap); \(daemon.log)")
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("go with no GPS fix at all: gps-lost plays once settled, and again 10 s later")
    func goWithoutFix() async throws {
        let daemon = try await SimulatedDaemon(events: "0 gps-off\n")
        let client = try daemon.client()
        try await Task.sleep(for: .seconds(1))
        let goAt = ContinuousClock.now
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let samples = try await GuidanceWarningTests.statusSamples(daemon, client, seconds: 16, until: "never logged")
        #expect(samples.allSatisfy { $0.state == "no-fix" }, "\(Set(samples.map(\.state)))")
        // Each warning plays for a while; count where a run of gps-lost samples begins.
        let starts = zip([nil] + samples.map(\.pattern), samples).filter { $0 != "gps-lost" && $1.pattern == "gps-lost" }
            .map { $1.at - goAt }
        #expect(starts.count == 2, "gps-lost began at \(starts)")
        if let first = starts.first {
            #expect(first >= .seconds(2.5) && first <= .seconds(5), "the first gps-lost after \(first)")
        }
        if starts.count == 2 {
            #expect(abs((starts[1] - starts[0]).seconds - 10) < 1.5, "\(starts)")
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("right after go: accepted, then guiding, and no heading-unreliable warning", arguments: 1...3)
    func noFalseWarningAfterGo(run: Int) async throws {
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        // Idle long enough for the slow idle sampling to set in, as when the wearer picks a place.
        try await Task.sleep(for: .seconds(5))
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let samples = try await GuidanceWarningTests.statusSamples(daemon, client, seconds: 6, until: "never logged")
        #expect(!samples.contains { $0.pattern == "heading-unreliable" }, "run \(run): \(samples.map { ($0.state, $0.pattern) })")
        #expect(samples.last?.state == "guiding", "run \(run): \(samples.map(\.state))")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// The real daemon (not `--simulate`) on a motor tree, with gpsd at `gpsd` and an I2C bus
    /// that does not exist (i2c-57), once its socket is up; the caller keeps the tree (its
    /// directory goes with it) until the daemon has stopped.
    static func realDaemon(_ waypointd: URL, gpsd: String) async throws -> (ChildProcess, String, PWMSysfsTree) {
        let tree = try SimulatedDaemon.motorTree()
        let root = tree.root
        let configuration = root.appendingPathComponent("waypointd.conf")
        try "gpsd \(gpsd)\ni2c-bus 57\n".write(to: configuration, atomically: true, encoding: .utf8)
        let socket = root.appendingPathComponent("control.sock").path
        let process = try ChildProcess(
            waypointd,
            ["--config", configuration.path, "--socket", socket, "--state-dir", root.appendingPathComponent("state").path,
             "--sysfs-root", root.path])
        try #require(await SimulatedDaemon.waitForSocket(socket), "no socket: \(process.errors.map(\.text))")
        return (process, socket, tree)
    }

    @Test("the real daemon with no I2C bus and no gpsd: up for 12 s, one log line about each, status names the IMU")
    func nothingThere() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        // Port 1: nothing listens there, so every connection is refused at once.
        let (process, socket, tree) = try await Self.realDaemon(waypointd, gpsd: "127.0.0.1:1")
        defer { withExtendedLifetime(tree) {} }
        try await Task.sleep(for: .seconds(12))
        let log = process.errors.map(\.text).joined(separator: "\n")
        #expect(process.isRunning, "\(log)")
        #expect(process.errors.filter { $0.text.contains("gps problem") }.count == 1, "\(log)")
        #expect(process.errors.filter { $0.text.contains("no usable IMU") }.count == 1, "\(log)")
        let client = try ControlClient(path: socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.contains { $0.hasPrefix("imu: ") && $0.contains("i2c-57") }, "\(problems)")
        // Issue 30, item 16: the problem says why on its own; there is no error "above" it.
        #expect(problems.contains { $0.contains("i2c-57 cannot be used: ") && $0.contains("No such file or directory") }, "\(problems)")
        #expect(!problems.contains { $0.contains("see the error above") }, "\(problems)")
        kill(process.processID, SIGTERM)
        #expect(process.waitForExit() == 0, "\(log)")
    }

    @Test("a state directory that went read-only before a start (issue 30, item 15): it guides on what it holds, says so, refuses saves with the reason")
    func readOnlyStateDirectory() async throws {
        let mount = try ExternalTool.find("mount", hint: "apt-get install mount")
        let umount = try ExternalTool.find("umount", hint: "apt-get install mount")
        var mounted: URL?
        defer { if let mounted { _ = try? ExternalTool.run(umount, [mounted.path]) } }
        // A read-only mount, as ext4 leaves a failing SD card: root ignores mode bits, not that.
        let daemon = try await SimulatedDaemon(prepareState: { state in
            let made = try ExternalTool.run(mount, ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", state.path])
            try #require(made.status == 0, "cannot mount a tmpfs: \(made.standardError)")
            mounted = state
            try #"{"version":1,"destination":{"lat":48.8583,"lon":2.2986,"name":"far"},"route":null}"#.write(
                to: state.appendingPathComponent("target.json"), atomically: false, encoding: .utf8)
            let readOnly = try ExternalTool.run(mount, ["-o", "remount,ro", state.path])
            try #require(readOnly.status == 0, "\(readOnly.standardError)")
            })
        let client = try daemon.client()
        let status = try #require(client.request(#"{"cmd":"status"}"#), "\(daemon.log)")
        #expect((status["destination"] as? [String: Any])?["name"] as? String == "far", "the saved destination guides: \(status)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.contains { $0.hasPrefix("state: ") && $0.contains("Read-only file system") && $0.contains("nothing is saved") }, "\(problems)")
        let go = try #require(client.request(#"{"cmd":"go","lat":48.8560,"lon":2.2990,"name":"bakery"}"#))
        #expect(go["class"] as? String == "ERROR", "\(go)")
        #expect((go["message"] as? String)?.contains("could not be saved") == true, "\(go)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("a hung gpsd (stopped, its socket open) is named in problems while it lasts (issue 30, item 16)")
    func hungGPSD() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let feeder = GPSCommandTests.Feeder(gpsd, log: GPSCommandTests.fixedLog)
        defer { feeder.stop() }
        let (process, socket, tree) = try await Self.realDaemon(waypointd, gpsd: gpsd.address)
        defer { process.terminate() }
        defer { withExtendedLifetime(tree) {} }
        let client = try ControlClient(path: socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        func gpsProblems() -> [String] {
            (client.request(#"{"cmd":"status"}"#)?["problems"] as? [String] ?? []).filter { $0.hasPrefix("gps: ") }
        }
        func waitFor(seconds: Double, _ condition: ([String]) -> Bool) async throws -> [String]? {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                let problems = gpsProblems()
                if condition(problems) { return problems }
                try await Task.sleep(for: .milliseconds(200))
            }
            return nil
        }
        let flowing = try await waitFor(seconds: 15) { _ in
            (client.request(#"{"cmd":"status"}"#)?["fix"] as? [String: Any])?["mode"] as? Int == 3
        }
        try #require(flowing != nil, "no fix from gpsd: \(process.errors.map(\.text))")
        #expect(gpsProblems().isEmpty)
        gpsd.suspend()
        let hung = try await waitFor(seconds: 8) { $0.contains { $0.contains("no data from gpsd at \(gpsd.address)") } }
        #expect(hung != nil, "a hung gpsd was never named: \(gpsProblems()) \(process.errors.map(\.text))")
        gpsd.resume()
        let back = try await waitFor(seconds: 10) { $0.isEmpty }
        #expect(back != nil, "the problem outlived gpsd's return: \(gpsProblems())")
    }

    @Test("with a destination restored at start, each state is logged once per change, never twice in a row")
    func stateLoggedOnce() async throws {
        let daemon = try await SimulatedDaemon(
            events: "0 gps-off\n3 gps-on\n",
            // The file an earlier build wrote: still read.
            stateFiles: ["destination.json": #"{"version":1,"destination":{"lat":48.8583,"lon":2.2986,"name":"far"}}"#])
        try await Task.sleep(for: .seconds(6))
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(daemon.logged("destination restored") != nil, "\(daemon.log)")
        let states = daemon.process.errors.map(\.text).filter { $0.contains("waypointd: state state=") }
        #expect(states.count >= 2, "\(states)")
        #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "\(states)")
    }
}
