import Foundation
import Geodesy
import Heading

/// Writes the recording format of DESIGN.md §4 (`--record FILE`): one JSON object a line, with
/// the same times the pipeline saw, so that `waypointd replay` reproduces the run exactly.
/// Numbers are written in their shortest exact form, which reads back to the same bits.
public final class Recorder: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    /// Lines that could not be written (a full disk): counted, not fatal to guidance.
    public private(set) var failedWrites = 0

    /// Creates (or truncates) the file.
    /// - Throws: when it cannot be created.
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Records one event at `seconds`.
    ///
    /// - Parameter live: What the live pipeline concluded from this event (IMU samples only),
    ///   written as `"live"`: the very line `waypointd replay` prints for it, so a replay can be
    ///   checked against the run sample by sample. Replay ignores it.
    public func record(_ kind: RecordingEvent.Kind, at seconds: Double, live: NavigationPipeline.Output? = nil) {
        let body: String
        switch kind {
        case .imu(let sample):
            var fields = ["\"mag\":" + Self.vector(sample.magneticMicrotesla), "\"acc\":" + Self.vector(sample.accelerationG)]
            if let gyro = sample.angularRateDegreesPerSecond { fields.append("\"gyro\":" + Self.vector(gyro)) }
            body = "\"imu\":{" + fields.joined(separator: ",") + "}" + (live.map { ",\"live\":" + Replay.encode($0) } ?? "")
        case .fix(let fix):
            body = "\"fix\":" + FixJSON.encode(fix)
        case .destination(let coordinate, let name):
            if let coordinate {
                let nameField = name.map { ",\"name\":" + Self.string($0) } ?? ""
                body = "\"destination\":{\"lat\":\(coordinate.latitudeDegrees),\"lon\":\(coordinate.longitudeDegrees)\(nameField)}"
            } else {
                body = "\"destination\":null"
            }
        case .calibration(nil):
            body = "\"calibration\":null"
        case .muted(let muted):
            body = "\"muted\":\(muted)"
        case .calibration(let calibration?):
            let rows = calibration.matrix.array.map { "[" + $0.map { "\($0)" }.joined(separator: ",") + "]" }
            body = "\"calibration\":{\"offset\":" + Self.vector(calibration.offsetMicrotesla)
                + ",\"matrix\":[" + rows.joined(separator: ",") + "]}"
        }
        let line = "{\"t\":\(seconds)," + body + "}\n"
        lock.lock()
        defer { lock.unlock() }
        do {
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            failedWrites += 1
        }
    }

    private static func vector(_ v: Vector3) -> String { "[\(v.x),\(v.y),\(v.z)]" }

    private static func string(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
}
