import Heading

/// The magnetometer die of the ST LSM303DLHC (Adafruit 1120 and FLORA 1247, Pololu).
///
/// Facts: `reference/sensors.md` §3.3. Configured for ±1.3 gauss (X and Y 1100 LSB/gauss, Z
/// 980 LSB/gauss: the gains differ), 75 Hz, continuous conversion. 75 Hz is the only rate
/// between 50 and 100 Hz (the next ones are 30 and 220 Hz). The output is big-endian and in
/// the order X, Z, Y. The register address advances by itself in a multi-byte read; no 0x80
/// bit is needed. There is no block data update on this die.
///
/// There is no documented WHO_AM_I: 0x0F reads 0x3C (kernel, Pololu), and IRA/IRB/IRC
/// (0x0A–0x0C) read "H43" like an HMC5883L's, so detection checks 0x0F before the HMC
/// identity.
public final class LSM303DLHCMagnetometer: MagnetometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case craRegM = 0x00
        case crbRegM = 0x01
        case mrRegM = 0x02
        case outXHM = 0x03
        case outXLM = 0x04
        case outZHM = 0x05
        case outZLM = 0x06
        case outYHM = 0x07
        case outYLM = 0x08
        case srRegM = 0x09
        case iraRegM = 0x0A
        case irbRegM = 0x0B
        case ircRegM = 0x0C
        /// Undocumented; reads 0x3C.
        case whoAmIM = 0x0F
        case tempOutHM = 0x31
        case tempOutLM = 0x32
    }

    /// The chip's name.
    public static let chipName = "LSM303DLHC"
    /// The only address the magnetometer has.
    public static let defaultAddress: UInt8 = 0x1E
    /// What the undocumented 0x0F reads.
    public static let expectedIdentity: UInt8 = 0x3C
    /// The X and Y field per count at ±1.3 gauss: 1/1100 gauss.
    public static let microteslaPerLSBXY = 100.0 / 1100.0
    /// The Z field per count at ±1.3 gauss: 1/980 gauss.
    public static let microteslaPerLSBZ = 100.0 / 980.0

    /// CRA_REG_M DO[4:2] = 110: 75 Hz (TEMP_EN[7] = 0).
    static let outputRate75Hz: UInt8 = 0b110 << 2
    /// CRB_REG_M GN[7:5] = 001: ±1.3 gauss, the finest scale; Earth's field is under 0.7 gauss.
    static let gain1p3Gauss: UInt8 = 0b001 << 5
    /// MR_REG_M MD[1:0] = 00: continuous conversion (reset leaves 11, sleep).
    static let continuousConversion: UInt8 = 0b00
    /// SR_REG_M DRDY[0]: a new sample.
    static let dataReady: UInt8 = 1 << 0

    /// The writes `configure()` makes, in order: rate, gain, then the mode register that leaves
    /// sleep.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.craRegM, outputRate75Hz),
        (.crbRegM, gain1p3Gauss),
        (.mrRegM, continuousConversion),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer (0x1E).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether the undocumented 0x0F reads 0x3C.
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmIM.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CRA_REG_M ← 0x18, CRB_REG_M ← 0x20, MR_REG_M ← 0x00.
    /// - Throws: `I2CError` from the first write that fails.
    public func configure() throws(I2CError) {
        for write in Self.initSequence {
            try device.writeRegister(write.register.rawValue, write.value)
        }
    }

    /// The latest field in µT, chip axes; nil when SR_REG_M.DRDY is clear.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.srRegM.rawValue)
        guard status & Self.dataReady != 0 else { return nil }
        // The magnetometer auto-increments by itself (the kernel's multi_read_bit = false).
        let bytes = try STSensor.readBlock(device, from: Register.outXHM.rawValue, count: STSensor.vectorByteCount)
        return Self.decodeField(
            bytes, microteslaPerLSBXY: Self.microteslaPerLSBXY, microteslaPerLSBZ: Self.microteslaPerLSBZ)
    }

    /// Output bytes to the field in µT.
    ///
    /// ```
    /// 0x03 OUT_X_H_M  0x04 OUT_X_L_M  0x05 OUT_Z_H_M  0x06 OUT_Z_L_M  0x07 OUT_Y_H_M  0x08 OUT_Y_L_M
    /// each axis int16 two's complement, HIGH byte first, in the order X, Z, Y
    /// (the older LSM303DLH had X, Y, Z)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_H_M on.
    ///   - microteslaPerLSBXY: the X and Y scale of the configured gain.
    ///   - microteslaPerLSBZ: the Z scale of the configured gain.
    public static func decodeField(_ bytes: [UInt8], microteslaPerLSBXY: Double, microteslaPerLSBZ: Double) -> Vector3 {
        precondition(bytes.count == STSensor.vectorByteCount, "an ST output block is six bytes")
        func count(_ index: Int) -> Double {
            Double(Int16(bitPattern: UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])))
        }
        let x = count(0), z = count(1), y = count(2)
        return Vector3(x * microteslaPerLSBXY, y * microteslaPerLSBXY, z * microteslaPerLSBZ)
    }
}

/// The accelerometer die of the ST LSM303DLHC (Adafruit 1120 and FLORA 1247, Pololu).
///
/// Facts: `reference/sensors.md` §3.2. Configured for ±4 g in high-resolution (12-bit) mode,
/// 2 mg per LSB, 100 Hz, all axes, block data update. ±4 g rather than ±2 g so heel strikes
/// while walking do not clip the gravity estimate. Output is left-justified in 16 bits; reads
/// of it set the sub-address MSB (0x80), which the part requires for auto-increment.
///
/// WHO_AM_I_A (0x33) is the same as the LSM303AGR accelerometer's (and LIS3DH's); detection
/// tells the two LSM303s apart by their magnetometer at 0x1E.
public final class LSM303DLHCAccelerometer: AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case whoAmIA = 0x0F
        case ctrlReg1A = 0x20
        case ctrlReg2A = 0x21
        case ctrlReg3A = 0x22
        case ctrlReg4A = 0x23
        case ctrlReg5A = 0x24
        case ctrlReg6A = 0x25
        case referenceA = 0x26
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
    }

    /// The chip's name.
    public static let chipName = "LSM303DLHC"
    /// The accelerometer's address (SA0 is tied high on the breakouts).
    public static let defaultAddress: UInt8 = 0x19
    /// What WHO_AM_I_A reads; the LSM303AGR accelerometer reads the same.
    public static let expectedIdentity: UInt8 = 0x33
    /// Specific force per 12-bit count in high-resolution mode at ±4 g: 2 mg.
    public static let gPerLSB = 2e-3
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

    /// Whether WHO_AM_I_A reads 0x33 (also true of an LSM303AGR accelerometer).
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
