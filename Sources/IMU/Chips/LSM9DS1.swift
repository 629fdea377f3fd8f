/// The accelerometer and gyroscope die of the ST LSM9DS1 (Raspberry Pi Sense HAT, BerryIMU v2,
/// Adafruit's LSM9DS1 breakout).
///
/// Facts: `reference/sensors.md` §3.7. A member of `LSM6DSFamily`, which holds the reading,
/// decoding and the ±4 g and ±500 °/s scales; this die has its own register map and start-up.
/// Both sensors run at the gyroscope's 59.5 Hz: writing CTRL_REG1_G with a non-zero rate starts
/// the accelerometer and the gyroscope together at that rate, so it is written last.
///
/// Auto-increment comes from CTRL_REG8 IF_ADD_INC, not from the sub-address MSB: the die has no
/// registers above 0x37, and a read at 0x80 | register reads nothing useful.
public final class LSM9DS1AccelerometerGyroscope: LSM6DSFamily, AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses (this map replaces the LSM6DS
    /// chips' `LSM6DSFamily.Register`).
    public enum Register: UInt8, Sendable, CaseIterable {
        case actThs = 0x04
        case actDur = 0x05
        case intGenCfgXL = 0x06
        case intGenThsXXL = 0x07
        case intGenThsYXL = 0x08
        case intGenThsZXL = 0x09
        case intGenDurXL = 0x0A
        case referenceG = 0x0B
        case int1Ctrl = 0x0C
        case int2Ctrl = 0x0D
        case whoAmI = 0x0F
        case ctrlReg1G = 0x10
        case ctrlReg2G = 0x11
        case ctrlReg3G = 0x12
        case orientCfgG = 0x13
        case intGenSrcG = 0x14
        case outTempL = 0x15
        case outTempH = 0x16
        /// STATUS_REG; the same bits appear again at 0x27.
        case statusReg = 0x17
        case outXLG = 0x18
        case outXHG = 0x19
        case outYLG = 0x1A
        case outYHG = 0x1B
        case outZLG = 0x1C
        case outZHG = 0x1D
        case ctrlReg4 = 0x1E
        case ctrlReg5XL = 0x1F
        case ctrlReg6XL = 0x20
        case ctrlReg7XL = 0x21
        case ctrlReg8 = 0x22
        case ctrlReg9 = 0x23
        case ctrlReg10 = 0x24
        case intGenSrcXL = 0x26
        /// STATUS_REG's second copy, beside the accelerometer output.
        case statusRegXL = 0x27
        case outXLXL = 0x28
        case outXHXL = 0x29
        case outYLXL = 0x2A
        case outYHXL = 0x2B
        case outZLXL = 0x2C
        case outZHXL = 0x2D
        case fifoCtrl = 0x2E
        case fifoSrc = 0x2F
    }

    /// The chip's name.
    public static let chipName = "LSM9DS1"
    /// The address with SA0 low (Sense HAT, BerryIMU v2).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high (Adafruit's breakout).
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads.
    public static let expectedIdentity: UInt8 = 0x68

    /// CTRL_REG4 Zen_G/Yen_G/Xen_G[5:3] and CTRL_REG5_XL Zen_XL/Yen_XL/Xen_XL[5:3]: all axes on
    /// (the reset value, written so a chip left otherwise by another program is brought back).
    static let allAxesEnabled: UInt8 = 0b111 << 3
    /// CTRL_REG6_XL ODR_XL[7:5] = 010: 50 Hz, used only if the gyroscope is ever powered down.
    static let accelerometerOnlyRate50Hz: UInt8 = 0b010 << 5
    /// CTRL_REG6_XL FS_XL[4:3] = 10: ±4 g.
    static let accelerometerFullScale4g: UInt8 = 0b10 << 3
    /// CTRL_REG1_G ODR_G[7:5] = 010: 59.5 Hz for both sensors.
    static let gyroscopeRate59Hz: UInt8 = 0b010 << 5
    /// CTRL_REG1_G FS_G[4:3] = 01: ±500 °/s.
    static let gyroscopeFullScale500dps: UInt8 = 0b01 << 3

    /// The writes `configure()` makes, in order; CTRL_REG1_G last because it starts sampling:
    /// CTRL_REG8 ← 0x44 (BDU, IF_ADD_INC), CTRL_REG4 ← 0x38, CTRL_REG5_XL ← 0x38,
    /// CTRL_REG6_XL ← 0x50, CTRL_REG1_G ← 0x48.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg8, blockDataUpdate | addressIncrement),
        (.ctrlReg4, allAxesEnabled),
        (.ctrlReg5XL, allAxesEnabled),
        (.ctrlReg6XL, accelerometerOnlyRate50Hz | accelerometerFullScale4g),
        (.ctrlReg1G, gyroscopeRate59Hz | gyroscopeFullScale500dps),
    ]

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the accelerometer/gyroscope die (0x6A or 0x6B).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identity: Self.expectedIdentity, initSequence: Self.initSequence, whoAmI: Register.whoAmI,
            status: .statusReg, accelerometerOutput: .outXLXL, gyroscopeOutput: .outXLG)
    }
}

/// The magnetometer die of the ST LSM9DS1 (a LIS3MDL-compatible register map).
///
/// Facts: `reference/sensors.md` §3.7. A member of `LIS3MDLFamily`, which holds the shared
/// register map (named here with an _M suffix: CTRL_REG1_M, STATUS_REG_M, OUT_X_L_M),
/// configuration (±4 gauss, ultra-high performance, 80 Hz, continuous, block data update),
/// reading and decoding. This die's own: temperature compensation on, and 0.14 mgauss/LSB at
/// ±4 gauss per the LSM9DS1 datasheet (the kernel's LIS3MDL table says 0.146).
///
/// WHO_AM_I_M (0x3D) is the same as LIS3MDL's. Its X axis points opposite to the
/// accelerometer/gyroscope die's X (sensors.md §3.7); board presets remap, this driver reports
/// the die's own axes.
public final class LSM9DS1Magnetometer: LIS3MDLFamily, MagnetometerDriver {
    /// The registers the die has beyond the family's `Register` map, with the datasheet's names
    /// and addresses; the driver uses none of them.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case offsetXRegLM = 0x05
        case offsetXRegHM = 0x06
        case offsetYRegLM = 0x07
        case offsetYRegHM = 0x08
        case offsetZRegLM = 0x09
        case offsetZRegHM = 0x0A
    }

    /// The chip's name.
    public static let chipName = "LSM9DS1"
    /// The address with SDO_M low (Sense HAT, BerryIMU v2).
    public static let defaultAddress: UInt8 = 0x1C
    /// The address with SDO_M high (Adafruit's breakout).
    public static let alternateAddress: UInt8 = 0x1E
    /// What WHO_AM_I_M reads; LIS3MDL reads the same.
    public static let expectedIdentity: UInt8 = 0x3D
    /// The field per count at ±4 gauss: 0.14 mgauss = 0.014 µT.
    public static let microteslaPerLSB = 0.014

    /// CTRL_REG1_M TEMP_COMP[7]: on-chip temperature compensation of the offset.
    static let temperatureCompensation: UInt8 = 1 << 7

    /// The writes `configure()` makes: the family's, with temperature compensation (CTRL_REG2_M
    /// ← 0x00, CTRL_REG1_M ← 0xFC, CTRL_REG4_M ← 0x0C, CTRL_REG5_M ← 0x40, CTRL_REG3_M ← 0x00).
    static let initSequence: [(register: Register, value: UInt8)] = familyInitSequence(
        temperatureCompensation: temperatureCompensation)

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer die (0x1C or 0x1E).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identity: Self.expectedIdentity, microteslaPerLSB: Self.microteslaPerLSB,
            initSequence: Self.initSequence)
    }
}
