/// ST LSM6DSL accelerometer and gyroscope (BerryIMU v3, BerryGPS-IMU v3/v4).
///
/// Facts: `reference/sensors.md` §3.6. A member of `LSM6DSFamily`, which holds the shared register
/// map, configuration (±4 g and ±500 °/s at 52 Hz), reading and decoding; this file holds what is
/// the DSL's own, and the FIFO the family's FIFO code reads. CTRL1_XL LPF1_BW_SEL[1] and BW0_XL[0]
/// stay 0: the default low-pass filtering at this rate.
public final class LSM6DSL: LSM6DSFamily, AccelerometerDriver {
    /// The registers the LSM6DSL has beyond the family's `Register` map, with the datasheet's
    /// names and addresses; the driver writes FIFO_CTRL3 and FIFO_CTRL5 (see
    /// `LSM6DSFamily+FIFO.swift`) and no other.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case sensorSyncTimeFrame = 0x04
        case sensorSyncResRatio = 0x05
        case fifoCtrl1 = 0x06
        case fifoCtrl2 = 0x07
        case fifoCtrl3 = 0x08
        case fifoCtrl4 = 0x09
        case fifoCtrl5 = 0x0A
        case drdyPulseCfgG = 0x0B
        case masterConfig = 0x1A
    }

    /// The chip's name.
    public static let chipName = "LSM6DSL"
    /// The address with SA0 low (BerryIMU v3, BerryGPS-IMU).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high.
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads (LSM6DSM, ISM330DLC and LSM6DS3TR-C read the same).
    public static let expectedIdentity: UInt8 = 0x6A

    /// The writes `configure()` makes: the family's and nothing more (CTRL3_C ← 0x44,
    /// CTRL1_XL ← 0x38, CTRL2_G ← 0x34).
    static let initSequence: [(register: Register, value: UInt8)] = lsm6dsInitSequence()

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x6A or 0x6B).
    public init(device: any I2CDevice) {
        super.init(device: device, identity: Self.expectedIdentity, initSequence: Self.initSequence)
    }

    /// DIFF_FIFO is 11 bits: a 4 KB FIFO, 2048 words.
    override class var fifoWordCountMask: UInt16 { 0x07FF }
}

extension LSM6DSL: FIFOAccelerometerDriver {}
