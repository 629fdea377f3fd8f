import Heading

/// ST LSM6DS33 accelerometer and gyroscope (Adafruit 4480 and 4485, Pololu AltIMU-10 v5).
///
/// Facts: `reference/sensors.md` §3.6. Configured for ±4 g (0.122 mg/LSB) and ±500 °/s
/// (17.50 m°/s per LSB), both at 52 Hz, block data update and register auto-increment
/// (CTRL3_C IF_INC). ±4 g rather than ±2 g so heel strikes while walking do not clip the
/// gravity estimate; ±500 °/s because body and head turns stay well inside it.
///
/// Auto-increment comes from IF_INC, not from the sub-address MSB: the LSM6DS family has no
/// 0x80 multi-read bit (sensors.md §2).
public final class LSM6DS33: AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case funcCfgAccess = 0x01
        case fifoCtrl1 = 0x06
        case fifoCtrl2 = 0x07
        case fifoCtrl3 = 0x08
        case fifoCtrl4 = 0x09
        case fifoCtrl5 = 0x0A
        case orientCfgG = 0x0B
        case int1Ctrl = 0x0D
        case int2Ctrl = 0x0E
        case whoAmI = 0x0F
        case ctrl1XL = 0x10
        case ctrl2G = 0x11
        case ctrl3C = 0x12
        case ctrl4C = 0x13
        case ctrl5C = 0x14
        case ctrl6C = 0x15
        case ctrl7G = 0x16
        case ctrl8XL = 0x17
        case ctrl9XL = 0x18
        case ctrl10C = 0x19
        case wakeUpSrc = 0x1B
        case tapSrc = 0x1C
        case d6dSrc = 0x1D
        case statusReg = 0x1E
        case outTempL = 0x20
        case outTempH = 0x21
        case outXLG = 0x22
        case outXHG = 0x23
        case outYLG = 0x24
        case outYHG = 0x25
        case outZLG = 0x26
        case outZHG = 0x27
        case outXLXL = 0x28
        case outXHXL = 0x29
        case outYLXL = 0x2A
        case outYHXL = 0x2B
        case outZLXL = 0x2C
        case outZHXL = 0x2D
    }

    /// The chip's name.
    public static let chipName = "LSM6DS33"
    /// It has a gyroscope.
    public static let hasGyroscope = true
    /// The address with SA0 low (Adafruit's default).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high (Pololu's default).
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads (LSM6DS3 reads the same in the kernel's table).
    public static let expectedIdentity: UInt8 = 0x69
    /// Specific force per count at ±4 g: 0.122 mg.
    public static let gPerLSB = 0.122e-3
    /// Angular rate per count at ±500 °/s: 17.50 m°/s.
    public static let degreesPerSecondPerLSB = 17.50e-3

    /// CTRL3_C BDU[6]: a sample's bytes are not overwritten until all of them have been read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// CTRL3_C IF_INC[2]: the register address advances in a multi-byte read (the reset value,
    /// written again because the same write sets BDU). BLE[1] = 0: little-endian.
    static let addressIncrement: UInt8 = 1 << 2
    /// CTRL1_XL ODR_XL[7:4] and CTRL2_G ODR_G[7:4] = 0011: 52 Hz.
    static let outputRate52Hz: UInt8 = 0b0011 << 4
    /// CTRL1_XL FS_XL[3:2] = 10: ±4 g (BW_XL[1:0] = 00: bandwidth follows the rate).
    static let accelerometerFullScale4g: UInt8 = 0b10 << 2
    /// CTRL2_G FS_G[3:2] = 01: ±500 °/s (FS_125[1] = 0).
    static let gyroscopeFullScale500dps: UInt8 = 0b01 << 2
    /// STATUS_REG XLDA[0]: a new accelerometer sample.
    static let accelerometerDataReady: UInt8 = 1 << 0
    /// STATUS_REG GDA[1]: a new gyroscope sample.
    static let gyroscopeDataReady: UInt8 = 1 << 1

    /// The writes `configure()` makes, in order: interface settings first, then the two rates
    /// that start sampling.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrl3C, blockDataUpdate | addressIncrement),
        (.ctrl1XL, outputRate52Hz | accelerometerFullScale4g),
        (.ctrl2G, outputRate52Hz | gyroscopeFullScale500dps),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x6A or 0x6B).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I reads 0x69.
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmI.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CTRL3_C ← 0x44, CTRL1_XL ← 0x38, CTRL2_G ← 0x34.
    /// - Throws: `I2CError` from the first write that fails.
    public func configure() throws(I2CError) {
        for write in Self.initSequence {
            try device.writeRegister(write.register.rawValue, write.value)
        }
    }

    /// The latest specific force in g, chip axes; nil when STATUS_REG.XLDA is clear.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.statusReg.rawValue)
        guard status & Self.accelerometerDataReady != 0 else { return nil }
        let bytes = try STSensor.readBlock(device, from: Register.outXLXL.rawValue, count: STSensor.vectorByteCount)
        return Self.decodeAcceleration(bytes, gPerLSB: Self.gPerLSB)
    }

    /// The latest angular rate in °/s, chip axes; nil when STATUS_REG.GDA is clear.
    /// - Throws: `I2CError`.
    public func readAngularRate() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.statusReg.rawValue)
        guard status & Self.gyroscopeDataReady != 0 else { return nil }
        let bytes = try STSensor.readBlock(device, from: Register.outXLG.rawValue, count: STSensor.vectorByteCount)
        return Self.decodeAngularRate(bytes, degreesPerSecondPerLSB: Self.degreesPerSecondPerLSB)
    }

    /// Accelerometer bytes to specific force in g (flat and face up: +1 g on z).
    ///
    /// ```
    /// 0x28 OUTX_L_XL  0x29 OUTX_H_XL  0x2A OUTY_L_XL  0x2B OUTY_H_XL  0x2C OUTZ_L_XL  0x2D OUTZ_H_XL
    /// each axis int16 two's complement, low byte first (CTRL3_C BLE = 0)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUTX_L_XL on.
    ///   - gPerLSB: the scale of the configured range.
    public static func decodeAcceleration(_ bytes: [UInt8], gPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: gPerLSB)
    }

    /// Gyroscope bytes to angular rate in °/s.
    ///
    /// ```
    /// 0x22 OUTX_L_G  0x23 OUTX_H_G  0x24 OUTY_L_G  0x25 OUTY_H_G  0x26 OUTZ_L_G  0x27 OUTZ_H_G
    /// each axis int16 two's complement, low byte first
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUTX_L_G on.
    ///   - degreesPerSecondPerLSB: the scale of the configured range.
    public static func decodeAngularRate(_ bytes: [UInt8], degreesPerSecondPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: degreesPerSecondPerLSB)
    }
}
