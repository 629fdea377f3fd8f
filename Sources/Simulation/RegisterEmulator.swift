import Heading
import IMU

/// A chip's registers as the real part presents them on the bus: identity, configuration,
/// status and output registers, with the part's auto-increment rules and byte order.
public protocol RegisterEmulator: AnyObject {
    /// The 7-bit address it answers at.
    var address: UInt8 { get }
    /// Bytes read from `register` on, as the part returns them in one transfer (a part that
    /// needs the 0x80 bit to auto-increment returns the same register over and over without it).
    func read(register: UInt8, count: Int) -> RegisterBlock
    /// A register write.
    func write(register: UInt8, value: UInt8)
}

/// A magnetometer emulator, given the true field in the chip's axes.
public protocol MagnetometerEmulator: RegisterEmulator {
    /// The field the chip sees, microtesla, chip axes; it shows in the output registers at the
    /// chip's resolution (and sets its data-ready bit) once the chip has been configured.
    func setField(_ microtesla: Vector3)
}

/// An accelerometer (and gyroscope) emulator.
public protocol AccelerometerEmulator: RegisterEmulator {
    /// The specific force, g, chip axes.
    func setAcceleration(_ g: Vector3)
    /// The angular rate, °/s, chip axes (ignored without a gyroscope).
    func setAngularRate(_ degreesPerSecond: Vector3)
    /// Whether the chip queues every sample in a FIFO now: then each sample it makes must be
    /// given to it; otherwise only the latest is ever read.
    var isQueueing: Bool { get }
}

extension AccelerometerEmulator {
    /// A chip without an emulated FIFO queues nothing.
    public var isQueueing: Bool { false }
}
