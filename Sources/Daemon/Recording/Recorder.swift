import ControlProtocol
import Geodesy
import Heading
import Synchronization
import SystemSupport

/// Writes the recording format of DESIGN.md §4 (`--record FILE`): one JSON object a line, with
/// the same times the pipeline saw, so that `waypointd replay` reproduces the run exactly.
/// Numbers are written in their shortest exact form, which reads back to the same bits.
public final class Recorder: Sendable {
    /// The open file, and how many lines could not be written to it.
    private struct Output {
        let descriptor: FileDescriptor
        var failedWrites = 0
    }

    private let output: Mutex<Output>

    /// Lines that could not be written (a full disk): counted, not fatal to guidance.
    public var failedWrites: Int { output.withLock { $0.failedWrites } }

    /// Creates (or truncates) the file, with mode 0666 less the umask, as a shell's `>` does.
    /// - Throws: The `Errno` that `open` failed with, e.g. `EACCES` or `ENOENT` for a missing
    ///   directory.
    public init(path: String) throws(Errno) {
        let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o666)
        output = Mutex(Output(descriptor: descriptor))
    }

    deinit {
        do throws(Errno) {
            try output.withLock { output throws(Errno) in try output.descriptor.close() }
        } catch {
            // The recorder goes away with the daemon, so no one is left to tell; a failure
            // here (an I/O error reported late, as network file systems do) can only affect the
            // last lines, and the earlier write failures were counted as they happened.
        }
    }

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
        let line = Array("{\"t\":\(seconds),\(body)}\n".utf8)
        output.withLock { output in
            do throws(Errno) {
                try output.descriptor.writeAll(line)
            } catch {
                output.failedWrites += 1
            }
        }
    }

    private static func vector(_ v: Vector3) -> String { "[\(v.x),\(v.y),\(v.z)]" }

    /// `text` as a JSON string, quotes included.
    private static func string(_ text: String) -> String { JSONWriter.quoted(text) }
}
