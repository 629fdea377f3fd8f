import ControlProtocol
import Core
import Geodesy
import Heading
import Synchronization
import SystemSupport
import TextFormats

/// Writes the recording format of DESIGN.md §4 (`--record FILE`): one JSON object a line, with
/// the same times the pipeline saw, so that `waypointd replay` reproduces the run exactly.
/// Numbers are written as every JSON of ours is (``JSONWriter``): the shortest form that reads
/// back to the same bits.
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
        var members: [(String, JSONWriter.Ordered)] = [("t", .number(seconds))]
        switch kind {
        case .imu(let sample):
            var imu = [("mag", Self.vector(sample.magneticMicrotesla)), ("acc", Self.vector(sample.accelerationG))]
            if let gyro = sample.angularRateDegreesPerSecond { imu.append(("gyro", Self.vector(gyro))) }
            members.append(("imu", .object(imu)))
            if let live { members.append(("live", .object(Replay.members(live)))) }
        case .fix(let fix):
            members.append(("fix", .object(FixJSON.members(fix))))
        case .destination(let coordinate, let name):
            guard let coordinate else {
                members.append(("destination", .value(.null)))
                break
            }
            var destination: [(String, JSONWriter.Ordered)] = [
                ("lat", .number(coordinate.latitudeDegrees)), ("lon", .number(coordinate.longitudeDegrees)),
            ]
            if let name { destination.append(("name", .string(name))) }
            members.append(("destination", .object(destination)))
        case .calibration(nil):
            members.append(("calibration", .value(.null)))
        case .calibration(let calibration?):
            let rows = calibration.matrix.array.map { row in JSONValue.array(row.map(Self.number)) }
            members.append(
                ("calibration", .object([("offset", Self.vector(calibration.offsetMicrotesla)), ("matrix", .value(.array(rows)))])))
        case .muted(let muted):
            members.append(("muted", .value(.bool(muted))))
        }
        let line = Array((JSONWriter.line(members) + "\n").utf8)
        output.withLock { output in
            do throws(Errno) {
                try output.descriptor.writeAll(line)
            } catch {
                output.failedWrites += 1
            }
        }
    }

    /// `[x,y,z]`, a non-finite component as `null`.
    private static func vector(_ v: Vector3) -> JSONWriter.Ordered { .value(.array([number(v.x), number(v.y), number(v.z)])) }

    private static func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }
}
