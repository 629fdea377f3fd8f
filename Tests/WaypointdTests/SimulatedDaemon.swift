import Foundation
import Testing
import TestSupport

/// A `waypointd --simulate` process with its own temporary socket, state directory, sysfs tree
/// (one PWM chip, channel 0 exported) and optional recording and simulation events.
final class SimulatedDaemon {
    /// Where the simulated wearer starts (WaypointDaemon.simulatedStart).
    static let start = (latitude: 48.8556, longitude: 2.2986)
    /// About 300 m north of the start: far enough that the wearer is still walking after a minute.
    static let far = #"{"cmd":"go","lat":48.8583,"lon":2.2986,"name":"far"}"#

    let tree: PWMSysfsTree
    let socket: String
    let process: ChildProcess
    let recording: String
    private let executable: URL
    private let arguments: [String]
    /// The configuration file it runs with, when it was given one.
    private(set) var configurationPath: String?

    /// A PWM tree with pwmchip0/pwm0 exported and stopped, as the daemon finds it on a Pi 5.
    static func motorTree() throws -> PWMSysfsTree {
        let tree = try PWMSysfsTree(devices: ["1f00098000.pwm"], channels: 1, udevDelayChecks: 0)
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 0, dutyNanoseconds: 0)
        return tree
    }

    /// Starts the daemon and waits for its socket; the test is skipped when the binary is not
    /// built (a failure under CI).
    /// - Parameters:
    ///   - configuration: the text of a configuration file to run with (`--config`).
    ///   - stateFiles: files to put in the state directory first, by name.
    ///   - prepareState: run on the state directory (created) before the daemon starts, for what
    ///     `stateFiles` cannot make: links, FIFOs.
    ///   - fileSizeLimitBytes: run it under `prlimit --fsize`, as `LimitFSIZE=` or a full disk would.
    ///   - environment: variables for the daemon, e.g. `NOTIFY_SOCKET` and `WATCHDOG_USEC`.
    ///   - speed: `--simulate-speed`: the simulated world and the daemon's clock run this many
    ///     times faster, for tests that would otherwise walk in real time.
    init(
        configuration: String? = nil, events: String? = nil, stateFiles: [String: String] = [:],
        prepareState: ((URL) throws -> Void)? = nil, fileSizeLimitBytes: Int? = nil, extraArguments: [String] = [],
        environment: [String: String] = [:], speed: Double = 1
    ) async throws {
        let waypointd = try ExternalTool.built("waypointd")
        executable = waypointd
        tree = try Self.motorTree()
        socket = tree.root.appendingPathComponent("control.sock").path
        if !stateFiles.isEmpty || prepareState != nil {
            let state = tree.root.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for (name, contents) in stateFiles {
                try contents.write(to: state.appendingPathComponent(name), atomically: false, encoding: .utf8)
            }
            try prepareState?(state)
        }
        recording = tree.root.appendingPathComponent("run.jsonl").path
        var arguments = [
            "--simulate", "--socket", socket, "--state-dir", tree.root.appendingPathComponent("state").path,
            "--sysfs-root", tree.root.path,
        ]
        if speed != 1 { arguments += ["--simulate-speed", "\(speed)"] }
        if let configuration {
            let path = tree.root.appendingPathComponent("waypointd.conf").path
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--config", path]
            configurationPath = path
        }
        if let events {
            let path = tree.root.appendingPathComponent("events.txt").path
            try events.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--simulate-events", path]
        }
        self.arguments = arguments
        if let fileSizeLimitBytes {
            // Without a recording: it would reach the limit first.
            let prlimit = try ExternalTool.find("prlimit", hint: "apt install util-linux")
            process = try ChildProcess(
                prlimit, ["--fsize=\(fileSizeLimitBytes)", "--", waypointd.path] + arguments + extraArguments)
        } else {
            process = try ChildProcess(waypointd, arguments + ["--record", recording] + extraArguments, environment: environment)
        }
        try #require(await Self.waitForSocket(socket), "no socket: \(process.errors.map(\.text))")
    }

    deinit { process.terminate() }

    /// A greeted client.
    func client() throws -> ControlClient {
        let client = try ControlClient(path: socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        return client
    }

    /// The motor's duty cycle as the sysfs file holds it, nanoseconds ("0" when silent).
    var dutyNanoseconds: String {
        // On this ordinary file (unlike sysfs) a read can land between the daemon's truncate
        // and its write, and a loaded machine can preempt the daemon right there: read again.
        for attempt in 0..<50 {
            if let value = tree.value("pwmchip0/pwm0/duty_cycle"), !value.isEmpty { return value }
            if attempt > 10 { usleep(2000) }
        }
        return "?"
    }

    /// Stops the daemon with SIGTERM and returns its exit status.
    func stop() -> Int32? {
        kill(process.processID, SIGTERM)
        return process.waitForExit()
    }

    /// Replays the stopped daemon's recording (`waypointd replay`, with its configuration) and
    /// expects every `live` line to be what the replay prints for it, field by field, and the
    /// recording's times never to go back (issue 30, item 5: events recorded in the order the
    /// core applied them). Returns the live lines.
    @discardableResult
    func expectReplayMatchesLive(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let waypointd = try #require(try ExternalTool.built("waypointd"), sourceLocation: sourceLocation)
        let replay = try ExternalTool.run(waypointd, ["replay", recording] + (configurationPath.map { ["--config", $0] } ?? []))
        #expect(replay.status == 0, "\(replay.standardError)", sourceLocation: sourceLocation)
        let replayed = replay.standardOutput.split(whereSeparator: \.isNewline).map(String.init)
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(whereSeparator: \.isNewline)
            .compactMap { line in try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] }
        let times = lines.compactMap { $0["t"] as? Double }
        let backwards = zip(times, times.dropFirst()).filter { $0.1 < $0.0 }
        #expect(backwards.isEmpty, "t goes back \(backwards.count) times, first \(backwards.first.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        let live = lines.compactMap { $0["live"] as? [String: Any] }
        #expect(live.count == replayed.count, "live \(live.count) samples, replay \(replayed.count)", sourceLocation: sourceLocation)
        var mismatches = 0
        for (liveOutput, line) in zip(live, replayed) {
            let replayOutput = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for key in ["t", "state", "heading", "bearing", "distance", "error", "intensity", "sharpness", "correction"] {
                let a = liveOutput[key], b = replayOutput[key]
                let same: Bool
                if let x = a as? Double, let y = b as? Double {
                    same = abs(x - y) <= 1e-9
                } else if let x = a as? String, let y = b as? String {
                    same = x == y
                } else {
                    same = (a == nil || a is NSNull) && (b == nil || b is NSNull)
                }
                if !same {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record("\(key): live \(String(describing: a)), replay \(String(describing: b))", sourceLocation: sourceLocation)
                    }
                }
            }
        }
        #expect(mismatches == 0, sourceLocation: sourceLocation)
        return live
    }

    /// The last lines of the daemon's log, for failure messages.
    var log: String { process.errors.map(\.text).suffix(40).joined(separator: "\n") }

    /// When the daemon logged a line containing `text`, if it has.
    func logged(_ text: String) -> ContinuousClock.Instant? { process.errors.first { $0.text.contains(text) }?.at }

    /// Starts the same daemon again on the same socket, state and tree; returns a greeted client.
    func restart() async throws -> (ChildProcess, ControlClient) {
        let restarted = try ChildProcess(executable, arguments)
        try #require(await Self.waitForSocket(socket))
        // The old socket file may linger until the new daemon replaces it: retry the connection.
        for _ in 0..<40 {
            if let client = try? ControlClient(path: socket), client.receive()?["class"] as? String == "VERSION" {
                return (restarted, client)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        restarted.terminate()
        throw NSError(domain: "SimulatedDaemon", code: 1, userInfo: [NSLocalizedDescriptionKey: "no restart"])
    }

    /// Polls `condition` on STATUS replies every 100 ms until it holds or `seconds` pass.
    /// - Returns: the status that satisfied it, or nil.
    func waitForStatus(
        _ client: ControlClient, seconds: Double, until condition: ([String: Any]) -> Bool
    ) async throws -> [String: Any]? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let status = client.request(#"{"cmd":"status"}"#), condition(status) { return status }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    static func waitForSocket(_ path: String) async -> Bool {
        for _ in 0..<200 {
            if FileManager.default.fileExists(atPath: path) { return true }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return false
    }
}

extension [String: Any] {
    /// `self[key]` as an object.
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
}
