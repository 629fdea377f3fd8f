import ButtonInput
import ControlProtocol
import SystemSupport

/// The button of `--simulate`: the script's `press GESTURE` written as the kernel would write
/// it, `struct input_event` records of one key, into a pipe the daemon reads as it reads a
/// device. The records are stamped on CLOCK_MONOTONIC with the gesture ending now, so the
/// daemon's own recogniser decides what they are.
public final class SimulatedButton: Sendable {
    /// The key pressed: the first of the daemon's `button-keys`.
    public let code: UInt16
    private let output: FileDescriptor

    /// How long each gesture holds the button and rests between taps, seconds: well inside
    /// the default timing's bounds (0.8 s long, 3 s very long, 0.4 s gap).
    static let tapSeconds = 0.1
    static let restSeconds = 0.15
    static let longSeconds = 1.2
    static let veryLongSeconds = 3.5

    /// A button writing to `output` (a pipe's write end, not blocking).
    public init(code: UInt16, output: FileDescriptor) {
        self.code = code
        self.output = output
    }

    deinit { try? output.close() }

    /// The records of `gesture`, ending at `endSeconds` on CLOCK_MONOTONIC.
    public static func records(of gesture: ButtonGesture, code: UInt16, endingAt endSeconds: Double) -> [UInt8] {
        let holds: [Double] =
            switch gesture {
            case .single: [tapSeconds]
            case .double: [tapSeconds, tapSeconds]
            case .triple: [tapSeconds, tapSeconds, tapSeconds]
            case .long: [longSeconds]
            case .veryLong: [veryLongSeconds]
            }
        var start = endSeconds - holds.reduce(0, +) - restSeconds * Double(holds.count - 1)
        var bytes: [UInt8] = []
        for hold in holds {
            bytes += InputEvent.keyRecords(code: code, down: true, atSeconds: start)
            bytes += InputEvent.keyRecords(code: code, down: false, atSeconds: start + hold)
            start += hold + restSeconds
        }
        return bytes
    }

    /// Presses the button; a pipe too full to take it (nobody reading) loses the press.
    public func press(_ gesture: ButtonGesture) {
        let bytes = Self.records(of: gesture, code: code, endingAt: InputDevice.monotonicSeconds())
        _ = bytes.withUnsafeBytes { try? output.write($0) }
    }
}
