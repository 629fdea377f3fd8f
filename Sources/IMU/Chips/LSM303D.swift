import Heading

/// ST LSM303D: magnetometer and accelerometer in one die at one address (Pimoroni Enviro pHAT,
/// Pololu). One driver serves both roles; `configure()` sets up both halves, so calling it from
/// each role is harmless.
///
/// Facts: `reference/sensors.md` §3.4. Configured for:
/// - accelerometer: ±4 g (0.122 mg/LSB), 50 Hz, all axes. ±4 g rather than ±2 g so heel
///   strikes while walking do not clip the gravity estimate.
/// - magnetometer: ±4 gauss (0.160 mgauss/LSB per the datasheet; the kernel's LSM9DS0 entry
///   says 0.146, sensors.md §3.4 flags the conflict), high resolution, 50 Hz, continuous. 50 Hz
///   avoids the unconfirmed rule that 100 Hz needs the accelerometer above 50 Hz.
/// - block data update, which CTRL1 sets for both halves.
///
/// Reads of either output set the sub-address MSB (0x80), which the part requires for
/// auto-increment. WHO_AM_I (0x49) is the same as the LSM9DS0's XM die.
public final class LSM303D: STSensor, MagnetometerDriver, AccelerometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case tempOutL = 0x05
        case tempOutH = 0x06
        case statusM = 0x07
        case outXLM = 0x08
        case outXHM = 0x09
        case outYLM = 0x0A
        case outYHM = 0x0B
        case outZLM = 0x0C
        case outZHM = 0x0D
        case whoAmI = 0x0F
        case intCtrlM = 0x12
        case intSrcM = 0x13
        case intThsLM = 0x14
        case intThsHM = 0x15
        case offsetXLM = 0x16
        case offsetXHM = 0x17
        case offsetYLM = 0x18
        case offsetYHM = 0x19
        case offsetZLM = 0x1A
        case offsetZHM = 0x1B
        case referenceX = 0x1C
        case referenceY = 0x1D
        case referenceZ = 0x1E
        case ctrl0 = 0x1F
        case ctrl1 = 0x20
        case ctrl2 = 0x21
        case ctrl3 = 0x22
        case ctrl4 = 0x23
        case ctrl5 = 0x24
        case ctrl6 = 0x25
        case ctrl7 = 0x26
        case statusA = 0x27
        case outXLA = 0x28
        case outXHA = 0x29
        case outYLA = 0x2A
        case outYHA = 0x2B
        case outZLA = 0x2C
        case outZHA = 0x2D
        case fifoCtrl = 0x2E
        case fifoSrc = 0x2F
        case igCfg1 = 0x30
        case igSrc1 = 0x31
        case igThs1 = 0x32
        case igDur1 = 0x33
        case igCfg2 = 0x34
        case igSrc2 = 0x35
        case igThs2 = 0x36
        case igDur2 = 0x37
        case clickCfg = 0x38
        case clickSrc = 0x39
        case clickThs = 0x3A
        case timeLimit = 0x3B
        case timeLatency = 0x3C
        case timeWindow = 0x3D
        case actThs = 0x3E
        case actDur = 0x3F
    }

    /// The chip's name.
    public static let chipName = "LSM303D"
    /// The address with SA0 high (Pimoroni's and Pololu's wiring).
    public static let defaultAddress: UInt8 = 0x1D
    /// The address with SA0 low.
    public static let alternateAddress: UInt8 = 0x1E
    /// What WHO_AM_I reads; the LSM9DS0's XM die reads the same.
    public static let expectedIdentity: UInt8 = 0x49
    /// The field per count at ±4 gauss: 0.160 mgauss = 0.016 µT.
    public static let microteslaPerLSB = 0.016
    /// Specific force per count at ±4 g: 0.122 mg.
    public static let gPerLSB = 0.122e-3

    /// CTRL1 AODR[7:4] = 0101: accelerometer at 50 Hz.
    static let accelerometerRate50Hz: UInt8 = 0b0101 << 4
    /// CTRL1 BDU[3]: a sample's bytes are not overwritten until all have been read (both halves).
    static let blockDataUpdate: UInt8 = 1 << 3
    /// CTRL1 AZEN/AYEN/AXEN[2:0]: all accelerometer axes on.
    static let allAxesEnabled: UInt8 = 0b111
    /// CTRL2 AFS[5:3] = 001: ±4 g (ABW[7:6] = 00: the widest anti-alias filter; no self-test).
    static let accelerometerFullScale4g: UInt8 = 0b001 << 3
    /// CTRL5 M_RES[6:5] = 11: magnetometer high resolution (TEMP_EN[7] = 0).
    static let magnetometerHighResolution: UInt8 = 0b11 << 5
    /// CTRL5 M_ODR[4:2] = 100: magnetometer at 50 Hz.
    static let magnetometerRate50Hz: UInt8 = 0b100 << 2
    /// CTRL6 MFS[6:5] = 01: ±4 gauss (the reset value, written so a chip left otherwise by
    /// another program is brought back).
    static let magnetometerFullScale4Gauss: UInt8 = 0b01 << 5
    /// CTRL7 MD[1:0] = 00: magnetometer continuous (reset leaves 10, power-down); MLP,
    /// filters and T_ONLY off.
    static let magnetometerContinuous: UInt8 = 0b00
    /// STATUS_M and STATUS_A X/Y/Z new-data bits [2:0].
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes `configure()` makes, in order (Pololu's): accelerometer range, then its rate,
    /// then the magnetometer's resolution and rate, range, and the mode that leaves power-down
    /// (CTRL2 ← 0x08, CTRL1 ← 0x5F, CTRL5 ← 0x70, CTRL6 ← 0x20, CTRL7 ← 0x00). `configure()` sets
    /// up both halves, so calling it from each role is harmless.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrl2, accelerometerFullScale4g),
        (.ctrl1, accelerometerRate50Hz | blockDataUpdate | allAxesEnabled),
        (.ctrl5, magnetometerHighResolution | magnetometerRate50Hz),
        (.ctrl6, magnetometerFullScale4Gauss),
        (.ctrl7, magnetometerContinuous),
    ]

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x1D or 0x1E).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identityRegister: Register.whoAmI, identity: Self.expectedIdentity,
            initSequence: Self.initSequence)
    }

    /// The latest field in µT, chip axes; nil when STATUS_M announces no new sample.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        try readNewBlock(
            status: Register.statusM.rawValue, readyMask: Self.newDataMask,
            output: Register.outXLM.rawValue | Self.multiReadBit
        ).map { Self.decodeField($0, microteslaPerLSB: Self.microteslaPerLSB) }
    }

    /// The latest specific force in g, chip axes; nil when STATUS_A announces no new sample.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        try readNewBlock(
            status: Register.statusA.rawValue, readyMask: Self.newDataMask,
            output: Register.outXLA.rawValue | Self.multiReadBit
        ).map { Self.decodeAcceleration($0, gPerLSB: Self.gPerLSB) }
    }

    /// Magnetometer bytes to the field in µT.
    ///
    /// ```
    /// 0x08 OUT_X_L_M  0x09 OUT_X_H_M  0x0A OUT_Y_L_M  0x0B OUT_Y_H_M  0x0C OUT_Z_L_M  0x0D OUT_Z_H_M
    /// each axis int16 two's complement, low byte first
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_M on.
    ///   - microteslaPerLSB: the scale of the configured range.
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }

    /// Accelerometer bytes to specific force in g (flat and face up: +1 g on z).
    ///
    /// ```
    /// 0x28 OUT_X_L_A  0x29 OUT_X_H_A  0x2A OUT_Y_L_A  0x2B OUT_Y_H_A  0x2C OUT_Z_L_A  0x2D OUT_Z_H_A
    /// each axis int16 two's complement, low byte first, all 16 bits significant
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L_A on.
    ///   - gPerLSB: the scale of the configured range.
    public static func decodeAcceleration(_ bytes: RegisterBlock, gPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: gPerLSB)
    }
}
