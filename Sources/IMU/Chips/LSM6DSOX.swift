/// ST LSM6DSOX accelerometer and gyroscope (Adafruit 4438, 4517 and 4565).
///
/// Facts: `reference/sensors.md` §3.6. A member of `LSM6DSFamily`, which holds the shared
/// register map, configuration (±4 g and ±500 °/s at 52 Hz), reading and decoding; this file
/// holds what is the DSOX's own: the I3C interface is turned off, and the ±4 g code assumes
/// CTRL8_XL XL_FS_MODE at its reset 0 (CTRL1_XL LPF2_XL_EN[1] stays 0).
///
/// WHO_AM_I 0x6C is shared with LSM6DSO and LSM6DSO32; on a DSO32 the range codes mean twice
/// the range (±4 g is ±8 g there), so its readings would come out halved.
public final class LSM6DSOX: LSM6DSFamily, AccelerometerDriver {
    /// The registers the LSM6DSOX has beyond the family's `Register` map, with the datasheet's
    /// names and addresses; the driver uses none of them. Its FIFO_CTRL registers start one
    /// address later than the LSM6DS33's and LSM6DSL's.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case pinCtrl = 0x02
        case fifoCtrl1 = 0x07
        case fifoCtrl2 = 0x08
        case fifoCtrl3 = 0x09
        case fifoCtrl4 = 0x0A
        case counterBdrReg1 = 0x0B
        case counterBdrReg2 = 0x0C
        case allIntSrc = 0x1A
    }

    /// The chip's name.
    public static let chipName = "LSM6DSOX"
    /// The address with SA0 low (Adafruit's default).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high.
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads (LSM6DSO and LSM6DSO32 read the same).
    public static let expectedIdentity: UInt8 = 0x6C

    /// CTRL9_XL DEN_X/DEN_Y/DEN_Z[7:5]: their reset value, kept.
    static let denStampingDefault: UInt8 = 0b111 << 5
    /// CTRL9_XL I3C_disable[1]: the part sits on a plain I2C bus, where Adafruit's driver turns
    /// the I3C interface off too.
    static let i3cDisable: UInt8 = 1 << 1

    /// The writes `configure()` makes: the family's, with I3C turned off among the interface
    /// settings (CTRL3_C ← 0x44, CTRL9_XL ← 0xE2, CTRL1_XL ← 0x38, CTRL2_G ← 0x34).
    static let initSequence: [(register: Register, value: UInt8)] = lsm6dsInitSequence(
        interfaceWrites: [(.ctrl9XL, denStampingDefault | i3cDisable)])

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x6A or 0x6B).
    public init(device: any I2CDevice) {
        super.init(device: device, identity: Self.expectedIdentity, initSequence: Self.initSequence)
    }
}
