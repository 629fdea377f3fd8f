import CInput
import Glibc
import SystemSupport

/// One open input device (`/dev/input/event*`), or a pipe standing in for one in tests and the
/// simulation: read without blocking, its events taken from every other reader while grabbed.
/// Each evdev ioctl is called here and nowhere else.
public final class InputDevice {
    public let descriptor: FileDescriptor
    /// Whether ``grab()`` holds the device.
    public private(set) var isGrabbed = false

    /// What a read gave.
    public enum ReadResult: Sendable, Hashable {
        /// This many bytes.
        case bytes(Int)
        /// Nothing waiting now.
        case empty
        /// The device is gone (`ENODEV`: unplugged, a headset out of range), or the pipe's
        /// writer closed it: close it and look for it again.
        case gone(String)
    }

    /// Opens `path` for reading, without blocking, and asks for monotonic time stamps (a pipe
    /// has none to ask for: its writer writes them).
    public init(path: String) throws(Errno) {
        descriptor = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking])
        _ = waypoint_input_use_monotonic(descriptor.rawValue)
    }

    /// Wraps a descriptor already open (a pipe's read end).
    public init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }

    /// Takes the device's events from every other reader (the console, a desktop), so that a
    /// press moves only the daemon. A pipe cannot be grabbed: not an error worth more than a
    /// false.
    @discardableResult
    public func grab() -> Bool {
        isGrabbed = waypoint_input_grab(descriptor.rawValue, 1) == 0
        return isGrabbed
    }

    /// The device's name (`gpio_keys`, a headset's), or nil for what has none (a pipe).
    public var name: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard waypoint_input_name(descriptor.rawValue, &buffer, Int32(buffer.count)) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The key codes the device can send, or nil when it says none (a pipe).
    public var keys: [UInt16]? {
        var bits = [UInt8](repeating: 0, count: Int(KeyCode.maximum) / 8 + 1)
        guard waypoint_input_key_bits(descriptor.rawValue, &bits, Int32(bits.count)) >= 0 else { return nil }
        return (0...KeyCode.maximum).filter { bits[Int($0) / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// Reads what is waiting into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        do throws(Errno) {
            let count = try descriptor.read(into: buffer)
            return count == 0 ? .gone("closed by its writer") : .bytes(count)
        } catch {
            if error == .wouldBlock { return .empty }
            return .gone(Self.problem(errno: error.rawValue))
        }
    }

    /// A failed read's words: `ENODEV` is what evdev answers once its device is gone.
    public static func problem(errno: Int32) -> String {
        errno == ENODEV ? "unplugged or out of range" : Errno(rawValue: errno).message
    }

    /// CLOCK_MONOTONIC now, seconds: the records' clock.
    public static func monotonicSeconds() -> Double { waypoint_input_monotonic_seconds() }
}
