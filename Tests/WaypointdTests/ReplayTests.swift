import Foundation
import Geodesy
import Heading
import Simulation
import Testing
import TestSupport

/// `waypointd replay` over recordings made with the simulation's physics.
@Suite("waypointd replay", .timeLimit(.minutes(10)))
struct ReplayTests {
    static let paris = (latitude: 48.8584, longitude: 2.2945)

    /// A 30 s recording in Paris: calibration, fix, a destination 3.2 km to the east, and
    /// 50 Hz samples of a wearer holding headings for 4 s and turning between them.
    static func recording() -> (text: String, truth: [(seconds: Double, yaw: Double, turning: Bool)]) {
        var physics = SensorPhysics(latitudeDegrees: paris.latitude, longitudeDegrees: paris.longitude, decimalYear: 2026.5, seed: 3)
        physics.hardIronMicrotesla = Vector3(12, -30, 8)
        var lines = [
            #"{"t":0,"calibration":{"offset":[12,-30,8],"matrix":[[1,0,0],[0,1,0],[0,0,1]]}}"#,
            #"{"t":0,"fix":{"time":"2026-07-02T10:00:00.000Z","mode":3,"lat":48.8584,"lon":2.2945,"altHAE":80,"eph":4}}"#,
            #"{"t":0,"destination":{"lat":48.8606,"lon":2.3376,"name":"east"}}"#,
        ]
        var truth: [(Double, Double, Bool)] = []
        for i in 0..<1500 {
            let t = Double(i) / 50
            let k = Int(t / 6)
            let phase = t - Double(k) * 6
            let turning = phase >= 4
            let yaw = Double(k) * 45 + (turning ? 45 * (phase - 4) / 2 : 0)
            let sample = physics.sample(Attitude(yawDegrees: yaw, pitchDegrees: 8, rollDegrees: -4))
            let m = sample.magneticMicrotesla
            let a = sample.accelerationG
            lines.append(#"{"t":\#(t),"imu":{"mag":[\#(m.x),\#(m.y),\#(m.z)],"acc":[\#(a.x),\#(a.y),\#(a.z)]}}"#)
            // A fix every second, as gpsd sends them.
            if i % 50 == 49 {
                lines.append(#"{"t":\#(t),"fix":{"time":"2026-07-02T10:00:00.000Z","mode":3,"lat":48.8584,"lon":2.2945,"altHAE":80,"eph":4}}"#)
            }
            truth.append((t, yaw, turning))
        }
        return (lines.joined(separator: "\n") + "\n", truth)
    }

    @Test("the replayed heading follows the simulated wearer; guidance vibrates only facing the destination")
    func replay() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let (text, truth) = Self.recording()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).jsonl")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run(waypointd, ["replay", file.path])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        try #require(lines.count == truth.count)
        // Initial bearing from the Eiffel Tower to (48.8606, 2.3376), from GeographicLib:
        // `echo "48.8584 2.2945 48.8606 2.3376" | GeodSolve -i -p 9` prints 85.56019101171199.
        let bearing = 85.56019101171199
        var errors: [Double] = []
        for (line, expected) in zip(lines, truth) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["state"] as? String == "guiding", "\(expected.seconds)")
            #expect(abs((object["bearing"] as? Double ?? 0) - bearing) < 1e-6)
            guard expected.seconds > 1, !expected.turning, let heading = object["heading"] as? Double else { continue }
            // The simulated wearer's yaw is a true heading; the pipeline adds WMM's declination
            // to its magnetic heading, so the two agree.
            errors.append(abs(Angle.signedDifference(from: expected.yaw, to: heading)))
            let intensity = object["intensity"] as? Double ?? -1
            let facing = abs(Angle.signedDifference(from: expected.yaw, to: bearing))
            if facing > 22 { #expect(intensity == 0, "\(expected.yaw)") }
            if facing < 18 { #expect(intensity > 0, "\(expected.yaw)") }
        }
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        #expect(errors.count > 900)
        #expect(rms < 1, "RMS heading error \(rms)°")
    }

    @Test("a recording made while go and clear come every 70 ms replays exactly: t never goes back, every live line matches (issue 30, item 5)")
    func manyRequests() async throws {
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        for round in 0..<60 {
            let request = round % 3 == 2 ? #"{"cmd":"clear"}"# : round % 2 == 0 ? SimulatedDaemon.far : #"{"cmd":"go","lat":48.8556,"lon":2.2995}"#
            #expect(client.request(request)?["class"] as? String == "OK")
            try await Task.sleep(for: .milliseconds(70))
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        let live = try daemon.expectReplayMatchesLive()
        #expect(live.count > 50, "\(live.count) samples")
    }

    @Test("replay - reads the recording from standard input")
    func standardInput() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let (text, truth) = Self.recording()
        let output = try ExternalTool.run(waypointd, ["replay", "-"], input: text)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.split(separator: "\n").count == truth.count)
    }

    @Test("a bad line is reported with its number and skipped; an unreadable file exits 66")
    func badLines() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let text = """
            {"t":0,"imu":{"mag":[20,0,40],"acc":[0,0,-1]}}
            {"t":0.02,"imu":{"mag":[20,0],"acc":[0,0,-1]}}
            not json
            {"t":0.04,"fix":{"mode":3,"lat":95,"lon":0}}
            {"t":0.06,"imu":{"mag":[20,0,40],"acc":[0,0,-1]}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).jsonl")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run(waypointd, ["replay", file.path])
        #expect(output.status == 1)
        #expect(output.standardOutput.split(separator: "\n").count == 2)
        #expect(output.standardError.contains("line 2: \"imu.mag\" must be three numbers (µT)"))
        #expect(output.standardError.contains("line 3: not a JSON object"))
        #expect(output.standardError.contains("line 4: fix: latitude 95"))
        let missing = try ExternalTool.run(waypointd, ["replay", "/nonexistent/recording.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("cannot read /nonexistent/recording.jsonl"))
    }
}
