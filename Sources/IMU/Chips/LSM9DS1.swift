import Heading

/// The accelerometer and gyroscope die of the ST LSM9DS1 (Raspberry Pi Sense HAT, BerryIMU v2,
/// Adafruit's LSM9DS1 breakout).
///
/// Facts: `reference/sensors.md` §3.7. Configured for ±4 g (0.122 mg/LSB) and ±500 °/s
/// (17.50 m°/s per LSB) with both sensors running at the gyroscope's 59.5 Hz, block data update
/// and register auto-increment (IF_ADD_INC). Writing CTRL_REG1_G with a non-zero rate starts
/// the accelerometer and the gyroscope together at that rate, so it is written last. ±4 g rather
/// than ±2 g so heel strikes while walking do not clip the gravity estimate.
///
/// Auto-increment comes from CTRL_REG8 IF_ADD_INC, not from the sub-address MSB: the die has no
/// registers above 0x37, and a read at 0x80 | register reads nothing useful.
public final class LSM9DS1AccelerometerGyroscope: AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses.
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
    /// It has a gyroscope.
    public static let hasGyroscope = true
    /// The address with SA0 low (Sense HAT, BerryIMU v2).
    public static let defaultAddress: UInt8 = 0x6A
    /// The address with SA0 high (Adafruit's breakout).
    public static let alternateAddress: UInt8 = 0x6B
    /// What WHO_AM_I reads.
    public static let expectedIdentity: UInt8 = 0x68
    /// Specific force per count at ±4 g: 0.122 mg.
    public static let gPerLSB = 0.122e-3
    /// Angular rate per count at ±500 °/s: 17.50 m°/s.
    public static let degreesPerSecondPerLSB = 17.50e-3

    /// CTRL_REG8 BDU[6]: a sample's bytes are not overwritten until all of them have been read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// CTRL_REG8 IF_ADD_INC[2]: the register address advances in a multi-byte read (the reset
    /// value, written again because the same write sets BDU). BLE[1] = 0: little-endian.
    static let addressIncrement: UInt8 = 1 << 2
    /// CTRL_REG4 Zen_G/Yen_G/Xen_G[5:3] and CTRL_REG5_XL Zen_XL/Yen_XL/Xen_XL[5:3]: all axes on
    /// (the reset value, written so a chip left otherwise by another program is brought back).
    static let allAxesEnabled: UInt8 = 0b111 << 3
    /// CTRL_REG6_XL ODR_XL[7:5] = 010: 50 Hz, used only if the gyroscope is ever powered down.
    static let accelerometerOnlyRate50Hz: UInt8 = 0b010 << 5
    /// CTRL_REG6_XL FS_XL[4:3] = 10: ±4 g.
    static let accelerometerFullScale4g: UInt8 = 0b10 << 3
    /// CTRL_REG1_G ODR_G[7:5] = 010: 59.5 Hz for both sensors.
    static let gyroscopeRate59Hz: UInt8 = 0b010 << 5
    /// CTRL_REG1_G FS_G[4:3] = 01: ±500 °/s; body and head turns stay well inside it.
    static let gyroscopeFullScale500dps: UInt8 = 0b01 << 3
    /// STATUS_REG XLDA[0]: a new accelerometer sample.
    static let accelerometerDataReady: UInt8 = 1 << 0
    /// STATUS_REG GDA[1]: a new gyroscope sample.
    static let gyroscopeDataReady: UInt8 = 1 << 1

    /// The writes `configure()` makes, in order; CTRL_REG1_G last because it starts sampling.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg8, blockDataUpdate | addressIncrement),
        (.ctrlReg4, allAxesEnabled),
        (.ctrlReg5XL, allAxesEnabled),
        (.ctrlReg6XL, accelerometerOnlyRate50Hz | accelerometerFullScale4g),
        (.ctrlReg1G, gyroscopeRate59Hz | gyroscopeFullScale500dps),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the accelerometer/gyroscope die (0x6A or 0x6B).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I reads 0x68.
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmI.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CTRL_REG8 ← 0x44, CTRL_REG4 ← 0x38, CTRL_REG5_XL ← 0x38,
    /// CTRL_REG6_XL ← 0x50, CTRL_REG1_G ← 0x48.
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
    /// 0x28 OUT_X_L_XL  0x29 OUT_X_H_XL  0x2A OUT_Y_L_XL  0x2B OUT_Y_H_XL  0x2C OUT_Z_L_XL  0x2D OUT_Z_H_XL
    /// each axis int16 two's complement, low byte first (CTRL_REG8 BLE = 0)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_XL on.
    ///   - gPerLSB: the scale of the configured range.
    public static func decodeAcceleration(_ bytes: [UInt8], gPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: gPerLSB)
    }

    /// Gyroscope bytes to angular rate in °/s.
    ///
    /// ```
    /// 0x18 OUT_X_L_G  0x19 OUT_X_H_G  0x1A OUT_Y_L_G  0x1B OUT_Y_H_G  0x1C OUT_Z_L_G  0x1D OUT_Z_H_G
    /// each axis int16 two's complement, low byte first
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_G on.
    ///   - degreesPerSecondPerLSB: the scale of the configured range.
    public static func decodeAngularRate(_ bytes: [UInt8], degreesPerSecondPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: degreesPerSecondPerLSB)
    }
}

/// The magnetometer die of the ST LSM9DS1 (a LIS3MDL-compatible register map).
///
/// Facts: `reference/sensors.md` §3.7. Configured for ±4 gauss (0.14 mgauss/LSB per the
/// LSM9DS1 datasheet; the kernel's LIS3MDL table says 0.146), ultra-high performance on all
/// axes with temperature compensation, 80 Hz, continuous conversion, block data update. Reads
/// of the output set the sub-address MSB (0x80) for auto-increment.
///
/// WHO_AM_I_M (0x3D) is the same as LIS3MDL's. Its X axis points opposite to the
/// accelerometer/gyroscope die's X (sensors.md §3.7); board presets remap, this driver reports
/// the die's own axes.
public final class LSM9DS1Magnetometer: MagnetometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case offsetXRegLM = 0x05
        case offsetXRegHM = 0x06
        case offsetYRegLM = 0x07
        case offsetYRegHM = 0x08
        case offsetZRegLM = 0x09
        case offsetZRegHM = 0x0A
        case whoAmIM = 0x0F
        case ctrlReg1M = 0x20
        case ctrlReg2M = 0x21
        case ctrlReg3M = 0x22
        case ctrlReg4M = 0x23
        case ctrlReg5M = 0x24
        case statusRegM = 0x27
        case outXLM = 0x28
        case outXHM = 0x29
        case outYLM = 0x2A
        case outYHM = 0x2B
        case outZLM = 0x2C
        case outZHM = 0x2D
        case intCfgM = 0x30
        case intSrcM = 0x31
        case intThsLM = 0x32
        case intThsHM = 0x33
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
    /// CTRL_REG1_M OM[6:5] = 11: ultra-high performance on X and Y.
    static let ultraHighPerformanceXY: UInt8 = 0b11 << 5
    /// CTRL_REG1_M DO[4:2] = 111: 80 Hz (FAST_ODR and ST stay 0).
    static let outputRate80Hz: UInt8 = 0b111 << 2
    /// CTRL_REG2_M FS[6:5] = 00: ±4 gauss.
    static let fullScale4Gauss: UInt8 = 0b00 << 5
    /// CTRL_REG3_M MD[1:0] = 00: continuous conversion (reset leaves 11, power-down); I2C
    /// stays enabled and LP off.
    static let continuousConversion: UInt8 = 0b00
    /// CTRL_REG4_M OMZ[3:2] = 11: ultra-high performance on Z. BLE[1] = 0: little-endian.
    static let ultraHighPerformanceZ: UInt8 = 0b11 << 2
    /// CTRL_REG5_M BDU[6].
    static let blockDataUpdate: UInt8 = 1 << 6
    /// STATUS_REG_M XDA/YDA/ZDA[2:0].
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes `configure()` makes, in order; continuous conversion last.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg2M, fullScale4Gauss),
        (.ctrlReg1M, temperatureCompensation | ultraHighPerformanceXY | outputRate80Hz),
        (.ctrlReg4M, ultraHighPerformanceZ),
        (.ctrlReg5M, blockDataUpdate),
        (.ctrlReg3M, continuousConversion),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer die (0x1C or 0x1E).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I_M reads 0x3D (also true of a LIS3MDL).
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmIM.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CTRL_REG2_M ← 0x00, CTRL_REG1_M ← 0xFC, CTRL_REG4_M ← 0x0C,
    /// CTRL_REG5_M ← 0x40, CTRL_REG3_M ← 0x00.
    /// - Throws: `I2CError` from the first write that fails.
    public func configure() throws(I2CError) {
        for write in Self.initSequence {
            try device.writeRegister(write.register.rawValue, write.value)
        }
    }

    /// The latest field in µT, chip axes; nil when STATUS_REG_M announces no new sample.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.statusRegM.rawValue)
        guard status & Self.newDataMask != 0 else { return nil }
        let bytes = try STSensor.readBlock(
            device, from: Register.outXLM.rawValue | STSensor.multiReadBit, count: STSensor.vectorByteCount)
        return Self.decodeField(bytes, microteslaPerLSB: Self.microteslaPerLSB)
    }

    /// Output bytes to the field in µT.
    ///
    /// ```
    /// 0x28 OUT_X_L_M  0x29 OUT_X_H_M  0x2A OUT_Y_L_M  0x2B OUT_Y_H_M  0x2C OUT_Z_L_M  0x2D OUT_Z_H_M
    /// each axis int16 two's complement, low byte first (CTRL_REG4_M BLE = 0)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_M on.
    ///   - microteslaPerLSB: the scale of the configured range.
    public static func decodeField(_ bytes: [UInt8], microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }
}
