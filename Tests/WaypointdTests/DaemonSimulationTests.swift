import Foundation
import Testing
import TestSupport

/// The real `waypointd --simulate` process over its real socket, driving the real sysfs code on
/// a temporary tree: the wearer turns on the spot until facing the destination, walks there and
/// arrives; the destination survives a restart.
@Suite("waypointd --simulate end to end", .timeLimit(.minutes(10)))
struct DaemonSimulationTests {
    static func waitForSocket(_ path: String) async -> Bool {
        for _ in 0..<200 {
            if FileManager.default.fileExists(atPath: path) { return true }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    /// Polls `status` ten times a second until `arrived` or 60 s; `observe` sees each reply and
    /// its state. Returns the states in the order they came, each once per run of it.
    static func statesUntilArrival(
        _ client: ControlClient, observe: ([String: Any], String) -> Void = { _, _ in }
    ) async throws -> [String] {
        var states: [String] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard let status = client.request(#"{"cmd":"status"}"#) else { break }
            let current = status["state"] as? String ?? "?"
            if states.last != current { states.append(current) }
            observe(status, current)
            if current == "arrived" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return states
    }

    @Test("go, guiding with the motor pulsing only when facing, arrival, motor off on SIGTERM, state kept")
    func simulatedWalk() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let tree = try SimulatedDaemon.motorTree()
        let state = tree.root.appendingPathComponent("state").path
        let socket = tree.root.appendingPathComponent("control.sock").path
        let recording = tree.root.appendingPathComponent("run.jsonl").path
        let arguments = ["--simulate", "--socket", socket, "--state-dir", state, "--sysfs-root", tree.root.path]
        let daemon = try ChildProcess(waypointd, arguments + ["--record", recording])
        defer { daemon.terminate() }
        try #require(await Self.waitForSocket(socket), "no socket: \(daemon.errors.map(\.text))")
        let client = try ControlClient(path: socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        // About 27 m north-east of where the simulated wearer starts.
        let reply = client.request(#"{"cmd":"go","lat":48.8558,"lon":2.2988,"name":"bench"}"#)
        #expect(reply?["class"] as? String == "OK", "\(String(describing: reply))")

        var pulsed = false
        var silentWhileFacingAway = false
        let states = try await Self.statesUntilArrival(client) { status, current in
            let error = (status["error"] as? Double).map(abs)
            let duty = tree.value("pwmchip0/pwm0/duty_cycle") ?? "0"
            if current == "guiding", duty != "0" { pulsed = true }
            if current == "guiding", let error, error > 40, (status["haptic"] as? [String: Any])?["intensity"] is NSNull {
                silentWhileFacingAway = true
            }
        }
        #expect(states.contains("guiding"), "\(states)")
        #expect(states.last == "arrived", "\(states)")
        #expect(pulsed, "the motor never pulsed while guiding")
        #expect(silentWhileFacingAway, "the motor was not silent while facing away")
        #expect(tree.value("pwmchip0/pwm0/period") == "40000")

        // Replay prints a state per IMU sample: let the sampling thread take one after the fix
        // that arrived (the fix comes on the GPS thread, the next burst within 0.1 s).
        try await Task.sleep(for: .milliseconds(500))
        kill(daemon.processID, SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.errors.map(\.text).suffix(300).joined(separator: "\n"))")
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm0/enable") == "0")

        // The recording replays to the same states the live run went through, and exactly the
        // same way every time.
        let replay = try ExternalTool.run(waypointd, ["replay", recording])
        #expect(replay.status == 0, "\(replay.standardError)")
        let replayed = replay.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"] as? String
        }
        var replayStates: [String] = []
        for state in replayed where replayStates.last != state { replayStates.append(state) }
        #expect(replayStates.last == "arrived", "\(replayStates)")
        // Replay prints a state per IMU sample; a state that lasted only between two samples
        // (right after `go`, before the next sample) can show in a live status poll and not in
        // the replay. From the first guidance on, the sequences must agree.
        let liveFromGuiding = Array(states.drop { $0 != "guiding" })
        let replayFromGuiding = Array(replayStates.drop { $0 != "guiding" })
        #expect(liveFromGuiding == replayFromGuiding, "live \(states), replay \(replayStates)")
        // Nothing disturbs this walk: once guiding, the heading never turns unreliable (a burst's
        // samples dated back to a fix once restarted gravity from a walking accelerometer).
        #expect(!liveFromGuiding.contains("no-heading"), "\(states)")
        #expect(!replayFromGuiding.contains("no-heading"), "\(replayStates)")
        let recordedLines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        let recordedSamples = recordedLines.filter { $0.contains("\"imu\"") }.count
        #expect(replayed.count == recordedSamples)
        // The BerryGPS-IMU v4's LSM6DSL queues its samples at 52 Hz in its FIFO, and they are
        // taken in bursts dated one FIFO period apart: most intervals are exactly that (polled
        // at the 50 Hz sample rate they would be 20 ms give or take the scheduler).
        let sampleTimes = recordedLines.filter { $0.contains("\"imu\"") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["t"] as? Double
        }
        let intervals = zip(sampleTimes.dropFirst(), sampleTimes).map { $0 - $1 }
        let fifoPeriods = intervals.filter { abs($0 - 1.0 / 52) < 0.0002 }.count
        #expect(intervals.count > 500)
        #expect(Double(fifoPeriods) > 0.6 * Double(intervals.count), "\(fifoPeriods) of \(intervals.count) intervals are 1/52 s")
        let replayAgain = try ExternalTool.run(waypointd, ["replay", recording])
        #expect(replayAgain.standardOutput == replay.standardOutput)

        let restarted = try ChildProcess(waypointd, arguments)
        defer { restarted.terminate() }
        try #require(await Self.waitForSocket(socket))
        // The old socket file may linger until the new daemon replaces it: retry the connection.
        var again: ControlClient?
        for _ in 0..<40 where again == nil {
            again = try? ControlClient(path: socket)
            if again == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let second = try #require(again)
        _ = second.receive()
        let status = second.request(#"{"cmd":"status"}"#)
        let destination = status?["destination"] as? [String: Any]
        #expect(destination?["name"] as? String == "bench", "\(String(describing: status))")
        let recent = second.request(#"{"cmd":"recent"}"#)
        #expect("\(String(describing: recent))".contains("bench"), "\(String(describing: recent))")
    }

    @Test("on a board without a gyroscope the wearer is guided to arrival, on samples made at the sample rate")
    func withoutGyroscope() async throws {
        let daemon = try await SimulatedDaemon(configuration: "imu adafruit-lsm303agr\n")
        let client = try daemon.client()
        #expect(client.request(#"{"cmd":"go","lat":48.8558,"lon":2.2988}"#)?["class"] as? String == "OK")
        let states = try await Self.statesUntilArrival(client)
        #expect(states.contains("guiding"), "\(states)")
        #expect(states.last == "arrived", "\(states)")
        #expect(daemon.stop() == 0, "\(daemon.log)")

        // The samples carry no angular rate, and reach the pipeline at the 50 Hz sample rate
        // while guiding, though the chips are read twice as often (each pair averaged).
        let lines = try String(contentsOfFile: daemon.recording, encoding: .utf8).split(separator: "\n")
        let imuLines = lines.filter { $0.contains("\"imu\"") }
        #expect(imuLines.count > 500)
        #expect(imuLines.allSatisfy { !$0.contains("\"gyro\"") })
        let goAt = try #require(
            lines.first { $0.contains("\"destination\"") }
                .flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["t"] as? Double })
        let times = imuLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["t"] as? Double }
            .filter { $0 > goAt + 1 }
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = try #require(intervals.isEmpty ? nil : intervals[intervals.count / 2])
        #expect(abs(median - 0.02) < 0.004, "median interval between samples \(median) s")
    }

    @Test("a corrupt state file is set aside, reported in status and the log, and the daemon starts anyway")
    func corruptStateFile() async throws {
        let daemon = try await SimulatedDaemon(stateFiles: ["target.json": "{\"destination\": {\"lat\": 91"])
        let client = try daemon.client()
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("target.json") == true && problems.first?.contains("moved aside") == true, "\(problems)")
        #expect(status["destination"] is NSNull)
        #expect(daemon.process.errors.contains { $0.text.contains("state file set aside") }, "\(daemon.log)")
        let aside = daemon.tree.root.appendingPathComponent("state/target.json.corrupt").path
        #expect(FileManager.default.fileExists(atPath: aside))
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK", "the daemon works on")
        #expect(daemon.stop() == 0)
    }

    @Test("a save cut short by a file size limit loses nothing saved before: an internal error, guidance goes on, the state reloads whole")
    func fileSizeLimit() async throws {
        let daemon = try await SimulatedDaemon(fileSizeLimitBytes: 500)
        let client = try daemon.client()
        let recent = daemon.tree.root.appendingPathComponent("state/recent.json")
        var lastSaved: Data?
        var savedNames: [String] = []
        var refusal: [String: Any]?
        // Names of 100 characters: the recent list soon outgrows 500 bytes.
        for index in 1...5 where refusal == nil {
            let name = String(repeating: "\(index)", count: 100)
            let reply = try #require(client.request(#"{"cmd":"go","lat":48.857\#(index),"lon":2.2986,"name":"\#(name)"}"#))
            if reply["class"] as? String == "OK" {
                lastSaved = try Data(contentsOf: recent)
                savedNames.insert(name, at: 0)
            } else {
                refusal = reply
            }
        }
        let error = try #require(refusal, "the limit was never reached")
        #expect(error["code"] as? String == "internal")
        #expect((error["message"] as? String)?.contains("could not be saved") == true, "\(error)")
        #expect(savedNames.count >= 1)
        // On disk: the last complete save, byte for byte, and no temporary file left over.
        #expect(try Data(contentsOf: recent) == lastSaved)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: recent.deletingLastPathComponent().path)
            .filter { !$0.hasSuffix(".json") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Guidance goes on to the new destination.
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        #expect((status.object("destination")?["name"] as? String)?.count == 100)
        #expect(daemon.process.isRunning)

        #expect(daemon.stop() == 0, "\(daemon.log)")
        let (restarted, again) = try await daemon.restart()
        defer { restarted.terminate() }
        let reloaded = try #require(again.request(#"{"cmd":"recent"}"#))
        let names = (reloaded["destinations"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == savedNames)
        #expect((again.request(#"{"cmd":"status"}"#)?["problems"] as? [String]) == [])
    }
}
