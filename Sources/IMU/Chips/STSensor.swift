@preconcurrency import Glibc
import Heading

/// The driver core every ST chip in this folder shares (LSM303AGR, LSM303DLHC, LSM303D, LIS3MDL,
/// LSM6DS33, LSM6DSL, LSM6DSOX, LSM9DS1): an identity register, a start-up sequence of register
/// writes, and output blocks of three int16 axes announced by status bits, with the multi-read
/// sub-address bit on the parts that need it. Families that share more derive their own base
/// from it (`LSM6DSFamily`, `LSM303AccelerometerFamily`, `LIS3MDLFamily`); the other chips
/// derive from it directly. Each chip's file holds its facts; this class is not used on its own.
public class STSensor {
    /// The sub-address MSB that asks for auto-increment on the LSM303 accelerometers, LSM303D,
    /// LIS3MDL and the LSM9DS1 magnetometer (sensors.md §2; the kernel's
    /// `ST_SENSORS_I2C_MULTIREAD`). Without it those parts return the same register over and
    /// over. The LSM6DS family and LSM9DS1's accelerometer/gyroscope use IF_INC instead and have
    /// no registers above 0x7F, so the bit must not be set there.
    static let multiReadBit: UInt8 = 0x80

    /// Bytes in one output block: X, Y and Z, two bytes each.
    static let vectorByteCount = 6

    /// The chip; the families read and write it beyond the shared calls (the LSM6DS FIFO).
    let device: any I2CDevice
    private let identityRegister: UInt8
    private let identity: UInt8
    private let initSequence: [(register: UInt8, value: UInt8)]

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameters:
    ///   - device: the chip.
    ///   - identityRegister: the register that identifies the chip (WHO_AM_I on most).
    ///   - identity: what it reads.
    ///   - initSequence: the writes `configure()` makes, in order.
    init<Register: RawRepresentable>(
        device: any I2CDevice, identityRegister: Register, identity: UInt8,
        initSequence: [(register: Register, value: UInt8)]
    ) where Register.RawValue == UInt8 {
        self.device = device
        self.identityRegister = identityRegister.rawValue
        self.identity = identity
        self.initSequence = initSequence.map { ($0.register.rawValue, $0.value) }
    }

    /// Whether the identity register reads the chip's `expectedIdentity`.
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(identityRegister) == identity
    }

    /// Starts continuous sampling with the writes of the chip's `initSequence`, in order.
    /// - Throws: `I2CError` from the first write that fails; the later ones are not made.
    public func configure() throws(I2CError) {
        for write in initSequence {
            try device.writeRegister(write.register, write.value)
        }
    }

    /// The six bytes of the output block at `output` when `status` announces a new sample (any
    /// bit of `readyMask` set), nil otherwise. Reading the status first and the block only then
    /// is what reports each sample once: reading the block clears the status bits.
    /// - Parameters:
    ///   - status: the status register.
    ///   - readyMask: its new-data bits for this block.
    ///   - output: the first output register, with `multiReadBit` set on the parts that need it.
    /// - Throws: `I2CError`; EIO when the device returned fewer bytes than asked for.
    func readNewBlock(status: UInt8, readyMask: UInt8, output: UInt8) throws(I2CError) -> RegisterBlock? {
        guard try device.readRegister(status) & readyMask != 0 else { return nil }
        return try device.readExactly(output, count: Self.vectorByteCount)
    }

    /// Three int16 in X, Y, Z order, low byte first: `X_L X_H Y_L Y_H Z_L Z_H`.
    static func littleEndianAxes(_ bytes: RegisterBlock) -> (x: Int16, y: Int16, z: Int16) {
        precondition(bytes.count == vectorByteCount, "an ST output block is six bytes")
        func axis(_ index: Int) -> Int16 {
            RegisterBytes.littleEndian(bytes, at: 2 * index)
        }
        return (axis(0), axis(1), axis(2))
    }

    /// The vector of three counts, each multiplied by `scale`.
    static func vector(_ counts: (x: Int16, y: Int16, z: Int16), scale: Double) -> Vector3 {
        Vector3(Double(counts.x) * scale, Double(counts.y) * scale, Double(counts.z) * scale)
    }
}
