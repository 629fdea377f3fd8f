import CInput

/// One record of a Linux input device (`struct input_event`): when, what kind (`EV_KEY`,
/// `EV_SYN`, …), which key or axis, and its value (for a key: 1 pressed, 0 released, 2 held
/// and repeating).
public struct InputEvent: Sendable, Hashable {
    /// The record's time stamp, seconds (CLOCK_MONOTONIC once ``InputDevice`` asked for it).
    public var seconds: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: Double, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN`: the end of a report, or (`SYN_DROPPED`) the kernel's buffer overflowed.
    public static let synchronization: UInt16 = UInt16(EV_SYN)
    /// `SYN_DROPPED`: events were lost; what a key is now must be read afresh.
    public static let dropped: UInt16 = UInt16(SYN_DROPPED)
    /// `EV_KEY`: a key or button.
    public static let key: UInt16 = UInt16(EV_KEY)

    /// The bytes of one record on this machine's ABI.
    public static let size = Int(waypoint_input_event_size())

    /// The record as the kernel would write it: a simulated device, a test's device.
    public var bytes: [UInt8] {
        var record = input_event()
        waypoint_input_event_fill(&record, seconds, type, code, value)
        return withUnsafeBytes(of: &record) { Array($0) }
    }

    /// The record in `bytes`, exactly ``size`` of them.
    init(record bytes: UnsafeRawBufferPointer) {
        let record = bytes.loadUnaligned(as: input_event.self)
        self = withUnsafePointer(to: record) { pointer in
            InputEvent(
                seconds: waypoint_input_event_seconds(pointer), type: record.type, code: record.code, value: record.value)
        }
    }

    /// A key's press (`down` true) or release, with the report's end after it.
    public static func keyRecords(code: UInt16, down: Bool, atSeconds seconds: Double) -> [UInt8] {
        InputEvent(seconds: seconds, type: key, code: code, value: down ? 1 : 0).bytes
            + InputEvent(seconds: seconds, type: synchronization, code: 0, value: 0).bytes
    }
}
