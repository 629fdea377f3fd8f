import Foundation
import Testing
import TestSupport

/// The heading on real sensor data: BROAD's recordings (a real IMU, hand-held, with optical
/// ground truth; `Data/broad/README.md`) through the real `waypointd replay`, scored against
/// the optical reference the way `../shared/tools/broad_score.py` scores them, and compared
/// with VQF's and an unfiltered compass's figures on the identical numbers (`peers.tsv`).
/// Nothing here comes from our own simulation.
@Suite("The heading on BROAD's real recordings, through waypointd replay", .timeLimit(.minutes(10)))
struct BroadReplayTests {
    static let undisturbed = [
        "06_undisturbed_fast_rotation_A", "10_undisturbed_slow_translation_A", "15_undisturbed_fast_translation_A",
    ]
    static let disturbed = ["24_disturbed_tapping_A", "32_disturbed_attached_magnet_1cm", "34_disturbed_attached_magnet_3cm"]
    /// WMM2025's declination at the recordings' fix, degrees: replay prints true headings.
    static let declinationDegrees = 5.0948

    @Test("with the gyroscope: mean RMS at most VQF's in each group, no-heading on at most 2 % of undisturbed samples")
    func withGyroscope() throws {
        let peers = try Peers()
        for (group, trials) in [("undisturbed", Self.undisturbed), ("disturbed", Self.disturbed)] {
            var ours: [Double] = []
            for trial in trials {
                let score = try Self.replay(trial, gyroscope: true)
                print("\(trial) gyro: RMS \(score.rms)°, no-heading \(score.noHeading * 100) %, VQF \(try peers.rms(trial, "vqf"))°")
                if group == "undisturbed" { #expect(score.noHeading <= 0.02, "\(trial): no-heading \(score.noHeading)") }
                ours.append(score.rms)
            }
            let vqf = try trials.map { try peers.rms($0, "vqf") }
            #expect(ours.mean <= vqf.mean, "\(group): ours \(ours.mean)° against VQF's \(vqf.mean)°")
        }
    }

    @Test("without the gyroscope: mean RMS at most the unfiltered compass's in each group")
    func withoutGyroscope() throws {
        let peers = try Peers()
        for (group, trials) in [("undisturbed", Self.undisturbed), ("disturbed", Self.disturbed)] {
            let ours = try trials.map { try Self.replay($0, gyroscope: false).rms }
            let naive = try trials.map { try peers.rms($0, "naive") }
            #expect(ours.mean <= naive.mean, "\(group): ours \(ours.mean)° against the compass's \(naive.mean)°")
        }
    }

    @Test("an attached magnet is flagged within 0.5 s, and while coasting the heading stays within 10°")
    func attachedMagnet() throws {
        let trial = "32_disturbed_attached_magnet_1cm"
        let score = try Self.replay(trial, gyroscope: true)
        // The onset, from the recording itself: the raw field first departs by 20 % from its
        // median over the first 10 s, where the sensor lies undisturbed.
        let still = score.samples.filter { $0.seconds < 10 }.map(\.fieldMicrotesla).sorted()
        let median = still[still.count / 2]
        let onset = try #require(score.samples.first { abs($0.fieldMicrotesla - median) > 0.2 * median }?.seconds)
        let flagged = try #require(score.samples.first { $0.seconds >= onset - 0.5 && $0.correction != "magnetic" }?.seconds)
        #expect(flagged - onset <= 0.5, "magnet from \(onset) s, flagged at \(flagged) s")
        let coasting = score.samples.filter { $0.correction == "coasting" && $0.evaluated }
        #expect(coasting.count > 100, "the heading coasted on \(coasting.count) evaluated samples")
        let worst = coasting.compactMap(\.errorDegrees).map(abs).max() ?? .infinity
        #expect(worst <= 10, "largest error while coasting \(worst)°")
    }

    @Test(
        "a magnet taken away leaves no lasting offset: 2 to 4 s after the field is clean the heading is within 2.5° of the truth",
        arguments: ["32_disturbed_attached_magnet_1cm", "34_disturbed_attached_magnet_3cm"])
    func returnAfterTheMagnetGoes(trial: String) throws {
        let score = try Self.replay(trial, gyroscope: true)
        // When the field is clean again, from the recording itself: the raw field's strength
        // last departs by 10 % from its median over the first 10 s, where the sensor lies
        // undisturbed. (The magnet disturbs it by 25 % and more while attached.)
        let still = score.samples.filter { $0.seconds < 10 }.map(\.fieldMicrotesla).sorted()
        let median = still[still.count / 2]
        let clean = try #require(score.samples.last { abs($0.fieldMicrotesla - median) > 0.1 * median }?.seconds)
        let after = score.samples.filter { $0.evaluated && $0.seconds >= clean + 2 && $0.seconds < clean + 4 }.compactMap(\.errorDegrees)
        try #require(after.count > 50, "evaluated samples 2 to 4 s after \(clean) s")
        let mean = after.map(abs).reduce(0, +) / Double(after.count)
        // Before issue 29 the heading took the magnetometer's 10 s time constant to come back:
        // 3.6° on trial 34 over this window.
        #expect(mean <= 2.5, "\(trial): mean error \(mean)° from 2 to 4 s after the field was clean at \(clean) s")
    }

    /// One replayed sample beside its reference.
    struct Sample {
        var seconds: Double
        var fieldMicrotesla: Double
        var correction: String?
        var state: String
        var evaluated: Bool
        /// wrap(true heading − reference − declination), degrees; nil without a heading.
        var errorDegrees: Double?
    }

    struct Score {
        var samples: [Sample]
        /// Over evaluated samples with a heading.
        var rms: Double
        /// The share of evaluated samples in no-heading or without a heading.
        var noHeading: Double
    }

    /// Replays a trial (with the gyroscope, or with every `gyro` removed) and scores it.
    static func replay(_ trial: String, gyroscope: Bool) throws -> Score {
        let waypointd = try #require(try ExternalTool.built("waypointd"))
        var recording = try gunzip("\(trial).jsonl.gz")
        if !gyroscope {
            recording = recording.replacingOccurrences(
                of: #","gyro":\[[^\]]*\]"#, with: "", options: .regularExpression)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broad-\(UUID().uuidString).jsonl")
        try recording.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run(waypointd, ["replay", file.path])
        try #require(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        let references = try gunzip("\(trial).ref.tsv.gz").split(separator: "\n").dropFirst()
        let imu = recording.split(separator: "\n").filter { $0.contains("\"imu\"") }
        try #require(lines.count == references.count && imu.count == references.count, "one output line per IMU sample")

        var samples: [Sample] = []
        for ((line, reference), event) in zip(zip(lines, references), imu) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let fields = reference.split(separator: "\t")
            let referenceDegrees = try #require(Double(fields[1]))
            let heading = object["heading"] as? Double
            samples.append(
                Sample(
                    seconds: object["t"] as? Double ?? .nan, fieldMicrotesla: try magnitude(ofMagIn: event),
                    correction: object["correction"] as? String, state: object["state"] as? String ?? "",
                    evaluated: fields[3] == "1",
                    errorDegrees: heading.map { wrap($0 - referenceDegrees - declinationDegrees) }))
        }
        let evaluated = samples.filter(\.evaluated)
        let errors = evaluated.compactMap(\.errorDegrees)
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        let noHeading = Double(evaluated.filter { $0.state == "no-heading" || $0.errorDegrees == nil }.count)
            / Double(evaluated.count)
        return Score(samples: samples, rms: rms, noHeading: noHeading)
    }

    /// A fixture's text, through the system's gzip.
    static func gunzip(_ name: String) throws -> String {
        let gzip = try #require(try ExternalTool.find("gzip", hint: "apt-get install gzip"))
        let output = try ExternalTool.run(gzip, ["-dc", TestData.url("Tests/WaypointdTests/Data/broad/\(name)").path])
        try #require(output.status == 0, "gzip: \(output.standardError)")
        return output.standardOutput
    }

    /// |mag| of a recording's `imu` line, µT (uncalibrated: the onset is a relative change).
    static func magnitude(ofMagIn line: Substring) throws -> Double {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let mag = try #require((object["imu"] as? [String: Any])?["mag"] as? [Double])
        return (mag.reduce(0) { $0 + $1 * $1 }).squareRoot()
    }

    static func wrap(_ degrees: Double) -> Double {
        let r = (degrees + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }

    /// The peers' figures on these trials.
    struct Peers {
        let rows: [String: Double]

        init() throws {
            var rows: [String: Double] = [:]
            for line in try TestData.text("Tests/WaypointdTests/Data/broad/peers.tsv").split(separator: "\n").dropFirst() {
                let fields = line.split(separator: "\t")
                rows["\(fields[0]) \(fields[1])"] = Double(fields[2])
            }
            self.rows = rows
        }

        func rms(_ trial: String, _ method: String) throws -> Double {
            try #require(rows["\(trial) \(method)"], "peers.tsv has no \(method) for \(trial)")
        }
    }
}

extension Array where Element == Double {
    fileprivate var mean: Double { reduce(0, +) / Double(count) }
}
