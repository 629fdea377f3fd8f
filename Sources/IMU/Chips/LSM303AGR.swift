import Heading

/// The magnetometer die of the ST LSM303AGR (the same design as LIS2MDL; Adafruit 4413).
///
/// Facts: `reference/sensors.md` §3.1. The range is fixed at ±50 gauss with 1.5 mgauss
/// (0.15 µT) per LSB. Configured for 100 Hz continuous conversion with temperature
/// compensation (COMP_TEMP_EN, which the datasheet reportedly requires and Adafruit sets) and
/// block data update. The register address advances by itself in a multi-byte read; no 0x80
/// bit is needed.
///
/// WHO_AM_I is at 0x4F (not 0x0F) and reads 0x40. Its axes are reported as the die's own;
/// whether they match the accelerometer's is unconfirmed (sensors.md §3.1), board presets decide.
public final class LSM303AGRMagnetometer: STSensor, MagnetometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case offsetXRegLM = 0x45
        case offsetXRegHM = 0x46
        case offsetYRegLM = 0x47
        case offsetYRegHM = 0x48
        case offsetZRegLM = 0x49
        case offsetZRegHM = 0x4A
        case whoAmIM = 0x4F
        case cfgRegAM = 0x60
        case cfgRegBM = 0x61
        case cfgRegCM = 0x62
        case intCtrlRegM = 0x63
        case intSourceRegM = 0x64
        case intThsLRegM = 0x65
        case intThsHRegM = 0x66
        case statusRegM = 0x67
        case outXLRegM = 0x68
        case outXHRegM = 0x69
        case outYLRegM = 0x6A
        case outYHRegM = 0x6B
        case outZLRegM = 0x6C
        case outZHRegM = 0x6D
    }

    /// The chip's name.
    public static let chipName = "LSM303AGR"
    /// The only address the magnetometer has.
    public static let defaultAddress: UInt8 = 0x1E
    /// What WHO_AM_I_M (0x4F) reads.
    public static let expectedIdentity: UInt8 = 0x40
    /// The field per count: 1.5 mgauss = 0.15 µT (the range is fixed).
    public static let microteslaPerLSB = 0.15

    /// CFG_REG_A_M COMP_TEMP_EN[7]: temperature compensation on.
    static let temperatureCompensation: UInt8 = 1 << 7
    /// CFG_REG_A_M ODR[3:2] = 11: 100 Hz (REBOOT, SOFT_RST and LP stay 0).
    static let outputRate100Hz: UInt8 = 0b11 << 2
    /// CFG_REG_A_M MD[1:0] = 00: continuous (reset leaves 11, idle).
    static let continuousMode: UInt8 = 0b00
    /// CFG_REG_C_M BDU[4]: a sample's bytes are not overwritten until all have been read
    /// (BLE[3] = 0: little-endian; INT_MAG[0] = 0: no data-ready pin).
    static let blockDataUpdate: UInt8 = 1 << 4
    /// STATUS_REG_M Xda/Yda/Zda[2:0] (the kernel's data-ready mask).
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes `configure()` makes, in order: block data update first, then the register
    /// that leaves idle mode, so the first sample is already protected (CFG_REG_C_M ← 0x10,
    /// CFG_REG_A_M ← 0x8C).
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.cfgRegCM, blockDataUpdate),
        (.cfgRegAM, temperatureCompensation | outputRate100Hz | continuousMode),
    ]

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer (0x1E).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identityRegister: Register.whoAmIM, identity: Self.expectedIdentity,
            initSequence: Self.initSequence)
    }

    /// The latest field in µT, chip axes; nil when STATUS_REG_M announces no new sample.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        // The magnetometer auto-increments by itself (the kernel's multi_read_bit = false).
        try readNewBlock(
            status: Register.statusRegM.rawValue, readyMask: Self.newDataMask,
            output: Register.outXLRegM.rawValue
        ).map { Self.decodeField($0, microteslaPerLSB: Self.microteslaPerLSB) }
    }

    /// Output bytes to the field in µT.
    ///
    /// ```
    /// 0x68 OUTX_L_REG_M  0x69 OUTX_H_REG_M  0x6A OUTY_L_REG_M
    /// 0x6B OUTY_H_REG_M  0x6C OUTZ_L_REG_M  0x6D OUTZ_H_REG_M
    /// each axis int16 two's complement, low byte first (CFG_REG_C_M BLE = 0)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUTX_L_REG_M on.
    ///   - microteslaPerLSB: the scale (0.15 µT).
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }
}

/// The accelerometer die of the ST LSM303AGR (LIS3DH class; Adafruit 4413).
///
/// Facts: `reference/sensors.md` §3.2. A member of `LSM303AccelerometerFamily`, which holds the
/// shared register map, configuration (±4 g high-resolution, 100 Hz, block data update), reading
/// and the left-justified decoding; this file holds what is the AGR's own: 1.95 mg per count and
/// the registers the DLHC lacks.
///
/// WHO_AM_I_A (0x33) is the same as the LSM303DLHC accelerometer's (and LIS3DH's); detection
/// tells the two LSM303s apart by their magnetometer at 0x1E.
public final class LSM303AGRAccelerometer: LSM303AccelerometerFamily, AccelerometerDriver {
    /// The registers the AGR accelerometer has beyond the family's `Register` map, with the
    /// datasheet's names and addresses; the driver uses none of them.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case statusRegAuxA = 0x07
        case outTempLA = 0x0C
        case outTempHA = 0x0D
        case intCounterRegA = 0x0E
        case tempCfgRegA = 0x1F
        case actThsA = 0x3E
        case actDurA = 0x3F
    }

    /// The chip's name.
    public static let chipName = "LSM303AGR"
    /// Specific force per 12-bit count in high-resolution mode at ±4 g: 1.95 mg.
    public static let gPerLSB = 1.95e-3

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the accelerometer (0x19).
    public init(device: any I2CDevice) {
        super.init(device: device, gPerLSB: Self.gPerLSB)
    }
}
