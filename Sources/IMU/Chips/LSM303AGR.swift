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
public final class LSM303AGRMagnetometer: MagnetometerDriver {
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
    /// that leaves idle mode, so the first sample is already protected.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.cfgRegCM, blockDataUpdate),
        (.cfgRegAM, temperatureCompensation | outputRate100Hz | continuousMode),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer (0x1E).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I_M (0x4F) reads 0x40.
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmIM.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CFG_REG_C_M ← 0x10, CFG_REG_A_M ← 0x8C.
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
        // The magnetometer auto-increments by itself (the kernel's multi_read_bit = false).
        let bytes = try STSensor.readBlock(device, from: Register.outXLRegM.rawValue, count: STSensor.vectorByteCount)
        return Self.decodeField(bytes, microteslaPerLSB: Self.microteslaPerLSB)
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
    public static func decodeField(_ bytes: [UInt8], microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }
}

/// The accelerometer die of the ST LSM303AGR (LIS3DH class; Adafruit 4413).
///
/// Facts: `reference/sensors.md` §3.2. Configured for ±4 g in high-resolution (12-bit) mode,
/// 1.95 mg per LSB, 100 Hz, all axes, block data update. ±4 g rather than ±2 g so heel strikes
/// while walking do not clip the gravity estimate. Output is left-justified in 16 bits; reads
/// of it set the sub-address MSB (0x80), which the part requires for auto-increment.
///
/// WHO_AM_I_A (0x33) is the same as the LSM303DLHC accelerometer's (and LIS3DH's); detection
/// tells the two LSM303s apart by their magnetometer at 0x1E.
public final class LSM303AGRAccelerometer: AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case statusRegAuxA = 0x07
        case outTempLA = 0x0C
        case outTempHA = 0x0D
        case intCounterRegA = 0x0E
        case whoAmIA = 0x0F
        case tempCfgRegA = 0x1F
        case ctrlReg1A = 0x20
        case ctrlReg2A = 0x21
        case ctrlReg3A = 0x22
        case ctrlReg4A = 0x23
        case ctrlReg5A = 0x24
        case ctrlReg6A = 0x25
        case referenceDataCaptureA = 0x26
        case statusRegA = 0x27
        case outXLA = 0x28
        case outXHA = 0x29
        case outYLA = 0x2A
        case outYHA = 0x2B
        case outZLA = 0x2C
        case outZHA = 0x2D
        case fifoCtrlRegA = 0x2E
        case fifoSrcRegA = 0x2F
        case int1CfgA = 0x30
        case int1SrcA = 0x31
        case int1ThsA = 0x32
        case int1DurationA = 0x33
        case int2CfgA = 0x34
        case int2SrcA = 0x35
        case int2ThsA = 0x36
        case int2DurationA = 0x37
        case clickCfgA = 0x38
        case clickSrcA = 0x39
        case clickThsA = 0x3A
        case timeLimitA = 0x3B
        case timeLatencyA = 0x3C
        case timeWindowA = 0x3D
        case actThsA = 0x3E
        case actDurA = 0x3F
    }

    /// The chip's name.
    public static let chipName = "LSM303AGR"
    /// The accelerometer's address (SA0 is tied high on the breakouts).
    public static let defaultAddress: UInt8 = 0x19
    /// What WHO_AM_I_A reads; the LSM303DLHC accelerometer reads the same.
    public static let expectedIdentity: UInt8 = 0x33
    /// Specific force per 12-bit count in high-resolution mode at ±4 g: 1.95 mg.
    public static let gPerLSB = 1.95e-3
    /// High-resolution output is 12 bits left-justified in 16: shift right by 4 (normal mode
    /// would need 6, low-power mode 8).
    public static let highResolutionShift = 4

    /// CTRL_REG1_A ODR[7:4] = 0101: 100 Hz.
    static let outputRate100Hz: UInt8 = 0b0101 << 4
    /// CTRL_REG1_A Zen/Yen/Xen[2:0]: all axes on (LPen[3] = 0: not low-power).
    static let allAxesEnabled: UInt8 = 0b111
    /// CTRL_REG4_A BDU[7]: a sample's bytes are not overwritten until all have been read
    /// (BLE[6] = 0: little-endian).
    static let blockDataUpdate: UInt8 = 1 << 7
    /// CTRL_REG4_A FS[5:4] = 01: ±4 g.
    static let fullScale4g: UInt8 = 0b01 << 4
    /// CTRL_REG4_A HR[3]: high-resolution (12-bit) output.
    static let highResolution: UInt8 = 1 << 3
    /// STATUS_REG_A XDA/YDA/ZDA[2:0] (the kernel's data-ready mask).
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes `configure()` makes, in order: scale and resolution first, then the rate
    /// that leaves power-down (Pololu's order).
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg4A, blockDataUpdate | fullScale4g | highResolution),
        (.ctrlReg1A, outputRate100Hz | allAxesEnabled),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the accelerometer (0x19).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I_A reads 0x33 (also true of an LSM303DLHC accelerometer).
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmIA.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CTRL_REG4_A ← 0x98, CTRL_REG1_A ← 0x57.
    /// - Throws: `I2CError` from the first write that fails.
    public func configure() throws(I2CError) {
        for write in Self.initSequence {
            try device.writeRegister(write.register.rawValue, write.value)
        }
    }

    /// The latest specific force in g, chip axes; nil when STATUS_REG_A announces no new sample.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.statusRegA.rawValue)
        guard status & Self.newDataMask != 0 else { return nil }
        let bytes = try STSensor.readBlock(
            device, from: Register.outXLA.rawValue | STSensor.multiReadBit, count: STSensor.vectorByteCount)
        return Self.decodeAcceleration(bytes, gPerLSB: Self.gPerLSB)
    }

    /// High-resolution output bytes to specific force in g (flat and face up: +1 g on z).
    ///
    /// ```
    /// 0x28 OUT_X_L_A  0x29 OUT_X_H_A  0x2A OUT_Y_L_A  0x2B OUT_Y_H_A  0x2C OUT_Z_L_A  0x2D OUT_Z_H_A
    /// each axis int16 low byte first, the 12-bit value left-justified:
    ///   OUT_x_H_A = d11 … d4, OUT_x_L_A = d3 … d0 0 0 0 0
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_A on.
    ///   - gPerLSB: g per 12-bit count at the configured range.
    public static func decodeAcceleration(_ bytes: [UInt8], gPerLSB: Double) -> Vector3 {
        let raw = STSensor.littleEndianAxes(bytes)
        // An arithmetic shift keeps the sign of the left-justified two's complement value.
        let counts = (raw.x >> highResolutionShift, raw.y >> highResolutionShift, raw.z >> highResolutionShift)
        return STSensor.vector(counts, scale: gPerLSB)
    }
}
