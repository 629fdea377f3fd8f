@preconcurrency import Glibc
import Core
import Daemon
import Heading
import SystemSupport

/// `waypoint-bench heading [NAME=VALUE ...] < RECORDING`: `waypointd replay -` with some of the
/// heading's settings changed, for `scripts/broad-loo.py`, which tunes them on BROAD's
/// recordings by leave-one-out. The names are the table below.
enum HeadingReplay {
    nonisolated(unsafe) static let settings: [String: WritableKeyPath<HeadingEstimator.Settings, Double>] = [
        "correction-seconds": \.orientation.correction.timeConstantSeconds,
        "clean-field-error-degrees": \.orientation.correction.cleanFieldErrorDegrees,
        "strength-tolerance": \.toleranceWithGyroscope.strength,
        "dip-tolerance-degrees": \.toleranceWithGyroscope.dipDegrees,
        "raise-score": \.reference.raiseScore,
        "clear-score": \.reference.clearScore,
        "clear-seconds": \.reference.clearSeconds,
        "new-field-seconds": \.reference.newFieldSeconds,
        "learning-seconds": \.reference.learningTimeConstantSeconds,
        "max-coasting-seconds": \.maximumCoastingSeconds,
    ]

    static func run(_ assignments: [String]) -> Int32 {
        var heading = Configuration().headingSettings
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let path = settings[parts[0]], let value = Double(parts[1]) else {
                fputs("waypoint-bench heading: expected NAME=NUMBER, NAME one of \(settings.keys.sorted()): \(assignment)\n", stderr)
                return 64
            }
            heading[keyPath: path] = value
        }
        // The one bounded read, as `waypointd replay -` reads it.
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileDescriptor(rawValue: STDIN_FILENO).read(upToCount: Replay.maximumRecordingBytes + 1)
        } catch {
            fputs("waypoint-bench heading: cannot read standard input: \(error)\n", stderr)
            return 66
        }
        guard bytes.count <= Replay.maximumRecordingBytes, let text = String(validating: bytes, as: UTF8.self) else {
            fputs("waypoint-bench heading: the recording is not UTF-8 text of at most \(Replay.maximumRecordingBytes) bytes\n", stderr)
            return 65
        }
        let configuration = Configuration()
        let pipeline = NavigationPipeline(
            heading: heading, navigation: configuration.navigatorSettings, calibration: nil,
            courseAssist: CourseAssist(isEnabled: configuration.courseAssistEnabled))
        let errors = Replay.run(text, pipeline: pipeline) { print($0) }
        for error in errors { fputs("waypoint-bench heading: \(error)\n", stderr) }
        return errors.isEmpty ? 0 : 1
    }
}
