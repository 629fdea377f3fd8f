import Heading

/// The accelerometer driver the ST LSM303AGR and LSM303DLHC share: both accelerometer dies are
/// of the LIS3DH class, with one register map, one address (0x19), one configuration, one
/// identity (WHO_AM_I_A 0x33, which is why detection tells the two LSM303s apart by their
/// magnetometers) and one left-justified output. They differ in sensitivity (1.95 against 2 mg per count at ±4 g) and
/// in a few registers the AGR adds. Each chip's file holds what is its own and passes it to the
/// initializer here; this class is not used on its own.
///
/// Facts: `reference/sensors.md` §3.2. Configured for ±4 g in high-resolution (12-bit) mode,
/// 100 Hz, all axes, block data update. ±4 g rather than ±2 g so heel strikes while walking do
/// not clip the gravity estimate. Output is left-justified in 16 bits; reads of it set the
/// sub-address MSB (0x80), which the parts require for auto-increment.
public class LSM303AccelerometerFamily: STSensor {
    /// The registers both dies have, with the datasheets' names and addresses. The AGR lists the
    /// registers it has beyond these in its `ExtraRegister`.
    public enum Register: UInt8, Sendable, CaseIterable {
        case whoAmIA = 0x0F
        case ctrlReg1A = 0x20
        case ctrlReg2A = 0x21
        case ctrlReg3A = 0x22
        case ctrlReg4A = 0x23
        case ctrlReg5A = 0x24
        case ctrlReg6A = 0x25
        /// REFERENCE_A; the AGR datasheet names it REFERENCE/DATACAPTURE_A.
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

    /// The accelerometer's address on both chips (SA0 is tied high on the breakouts).
    public static let defaultAddress: UInt8 = 0x19
    /// What WHO_AM_I_A reads on both dies (and on a LIS3DH).
    public static let expectedIdentity: UInt8 = 0x33
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
    /// that leaves power-down (Pololu's order): CTRL_REG4_A ← 0x98, CTRL_REG1_A ← 0x57.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg4A, blockDataUpdate | fullScale4g | highResolution),
        (.ctrlReg1A, outputRate100Hz | allAxesEnabled),
    ]

    private let gPerLSB: Double

    /// A driver for the die at `device`; nothing is written until `configure()`.
    /// - Parameters:
    ///   - device: the accelerometer.
    ///   - gPerLSB: specific force per 12-bit count at the configured ±4 g.
    init(device: any I2CDevice, gPerLSB: Double) {
        self.gPerLSB = gPerLSB
        super.init(
            device: device, identityRegister: Register.whoAmIA, identity: Self.expectedIdentity,
            initSequence: Self.initSequence)
    }

    /// The latest specific force in g, chip axes; nil when STATUS_REG_A announces no new sample.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        try readNewBlock(
            status: Register.statusRegA.rawValue, readyMask: Self.newDataMask,
            output: Register.outXLA.rawValue | Self.multiReadBit
        ).map { Self.decodeAcceleration($0, gPerLSB: gPerLSB) }
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
    public static func decodeAcceleration(_ bytes: RegisterBlock, gPerLSB: Double) -> Vector3 {
        let raw = STSensor.littleEndianAxes(bytes)
        // An arithmetic shift keeps the sign of the left-justified two's complement value.
        let counts = (raw.x >> highResolutionShift, raw.y >> highResolutionShift, raw.z >> highResolutionShift)
        return STSensor.vector(counts, scale: gPerLSB)
    }
}
