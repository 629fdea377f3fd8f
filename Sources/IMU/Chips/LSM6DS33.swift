/// ST LSM6DS33 accelerometer and gyroscope (Adafruit 4480 and 4485, Pololu AltIMU-10 v5).
///
/// Facts: `reference/sensors.md` §3.6. A member of `LSM6DSFamily`, which holds the shared register
/// map, configuration (±4 g and ±500 °/s at 52 Hz), reading and decoding; this file holds what is
/// the DS33's own, and the FIFO the family's FIFO code reads. CTRL1_XL BW_XL[1:0] stay 00: the
/// anti-aliasing bandwidth follows the rate.
public final class LSM6DS33: LSM6DSFamily, AccelerometerDriver {
    /// The registers the LSM6DS33 has beyond the family's `Register` map, with the datasheet's
    /// names and addresses; the driver writes FIFO_CTRL3 and FIFO_CTRL5 (see
    /// `LSM6DSFamily+FIFO.swift`) and no other.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case fifoCtrl1 = 0x06
        case fifoCtrl2 = 0x07
        case fifoCtrl3 = 0x08
        case fifoCtrl4 = 0x09
        case fifoCtrl5 = 0x0A
        case orientCfgG = 0x0B
    }

    /// The chip's name.
    public static let chipName = "LSM6DS33"
    /// The address with SA0 low (Adafruit's default).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high (Pololu's default).
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads (LSM6DS3 reads the same in the kernel's table).
    public static let expectedIdentity: UInt8 = 0x69

    /// The writes `configure()` makes: the family's and nothing more (CTRL3_C ← 0x44,
    /// CTRL1_XL ← 0x38, CTRL2_G ← 0x34).
    static let initSequence: [(register: Register, value: UInt8)] = lsm6dsInitSequence()

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x6A or 0x6B).
    public init(device: any I2CDevice) {
        super.init(device: device, identity: Self.expectedIdentity, initSequence: Self.initSequence)
    }

    /// DIFF_FIFO is 12 bits: an 8 KB FIFO, 4096 words.
    override class var fifoWordCountMask: UInt16 { 0x0FFF }
}

extension LSM6DS33: FIFOAccelerometerDriver {}
