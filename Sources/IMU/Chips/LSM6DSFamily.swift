import Heading

/// The accelerometer and gyroscope driver the ST LSM6DS family shares: LSM6DS33, LSM6DSL and
/// LSM6DSOX, and the LSM9DS1's accelerometer/gyroscope die, which the kernel's `st_lsm6dsx`
/// driver also serves from its table of per-chip settings. Each chip's file holds what is its
/// own (name, addresses, identity, the writes that start it) and passes it to an initializer
/// here; this class is not used on its own.
///
/// Facts: `reference/sensors.md` §3.6 and §3.7. Every member is configured for ±4 g
/// (0.122 mg/LSB) and ±500 °/s (17.50 m°/s per LSB) with block data update and register
/// auto-increment. ±4 g rather than ±2 g so heel strikes while walking do not clip the gravity
/// estimate; ±500 °/s because body and head turns stay well inside it. STATUS_REG announces each
/// sensor's sample (XLDA, GDA), and each output block is three little-endian int16.
///
/// Auto-increment comes from a control bit (CTRL3_C IF_INC; CTRL_REG8 IF_ADD_INC on the
/// LSM9DS1), not from the sub-address MSB: the family has no 0x80 multi-read bit (sensors.md §2),
/// so reads never set it.
public class LSM6DSFamily: STSensor {
    /// The registers the LSM6DS33, LSM6DSL and LSM6DSOX share, with the datasheets' names and
    /// addresses. Each of them lists the registers it has beyond these (FIFO, sensor hub) in its
    /// own `ExtraRegister`; the LSM9DS1's die has a map of its own, which hides this one.
    public enum Register: UInt8, Sendable, CaseIterable {
        case funcCfgAccess = 0x01
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
        /// OUTX_L_XL; the LSM6DSOX datasheet names the accelerometer outputs OUTX_L_A and so on.
        case outXLXL = 0x28
        case outXHXL = 0x29
        case outYLXL = 0x2A
        case outYHXL = 0x2B
        case outZLXL = 0x2C
        case outZHXL = 0x2D
    }

    /// Every member has a gyroscope.
    public static let hasGyroscope = true
    /// Specific force per count at ±4 g: 0.122 mg.
    public static let gPerLSB = 0.122e-3
    /// Angular rate per count at ±500 °/s: 17.50 m°/s.
    public static let degreesPerSecondPerLSB = 17.50e-3

    /// CTRL3_C (CTRL_REG8 on the LSM9DS1) BDU[6]: a sample's bytes are not overwritten until all
    /// of them have been read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// CTRL3_C IF_INC[2] (CTRL_REG8 IF_ADD_INC[2] on the LSM9DS1): the register address advances
    /// in a multi-byte read (the reset value, written again because the same write sets BDU).
    /// BLE[1] = 0: little-endian.
    static let addressIncrement: UInt8 = 1 << 2
    /// STATUS_REG XLDA[0]: a new accelerometer sample.
    static let accelerometerDataReady: UInt8 = 1 << 0
    /// STATUS_REG GDA[1]: a new gyroscope sample.
    static let gyroscopeDataReady: UInt8 = 1 << 1

    /// The writes that start an LSM6DS33, LSM6DSL or LSM6DSOX, in order: interface settings
    /// first (CTRL3_C ← 0x44, then the chip's own `interfaceWrites`), then the two rates that
    /// start sampling (CTRL1_XL ← 0x38, CTRL2_G ← 0x34).
    /// - Parameter interfaceWrites: settings a chip needs beyond the family's, written before
    ///   sampling starts.
    static func lsm6dsInitSequence(
        interfaceWrites: [(register: Register, value: UInt8)] = []
    ) -> [(register: Register, value: UInt8)] {
        [(.ctrl3C, blockDataUpdate | addressIncrement)] + interfaceWrites + [
            (.ctrl1XL, outputRate52Hz | accelerometerFullScale4g),
            (.ctrl2G, outputRate52Hz | gyroscopeFullScale500dps),
        ]
    }

    private let statusRegister: UInt8
    private let accelerometerOutput: UInt8
    private let gyroscopeOutput: UInt8
    /// Whether the FIFO's next data set is the first since it was started, which the
    /// datasheets say to discard (`LSM6DSFamily+FIFO.swift`).
    var fifoDiscardsNextDataSet = false
    /// The DIFF_FIFO bits of FIFO_STATUS1 and 2 (low byte first); the chips with the shared FIFO
    /// say how wide theirs is.
    class var fifoWordCountMask: UInt16 { 0 }

    /// A driver for a member with its own register map (the LSM9DS1); nothing is written until
    /// `configure()`.
    /// - Parameters:
    ///   - device: the chip.
    ///   - identity: what WHO_AM_I reads.
    ///   - initSequence: the writes `configure()` makes, in order.
    ///   - whoAmI: WHO_AM_I (0x0F on every member).
    ///   - status: STATUS_REG, with XLDA and GDA.
    ///   - accelerometerOutput: the first accelerometer output register (OUTX_L_XL).
    ///   - gyroscopeOutput: the first gyroscope output register (OUTX_L_G).
    init<Register: RawRepresentable>(
        device: any I2CDevice, identity: UInt8, initSequence: [(register: Register, value: UInt8)],
        whoAmI: Register, status: Register, accelerometerOutput: Register, gyroscopeOutput: Register
    ) where Register.RawValue == UInt8 {
        statusRegister = status.rawValue
        self.accelerometerOutput = accelerometerOutput.rawValue
        self.gyroscopeOutput = gyroscopeOutput.rawValue
        super.init(device: device, identityRegister: whoAmI, identity: identity, initSequence: initSequence)
    }

    /// A driver for an LSM6DS33, LSM6DSL or LSM6DSOX, which read WHO_AM_I, STATUS_REG and the
    /// outputs at the shared map's addresses; nothing is written until `configure()`.
    /// - Parameters:
    ///   - device: the chip.
    ///   - identity: what WHO_AM_I reads.
    ///   - initSequence: the writes `configure()` makes, in order.
    init(device: any I2CDevice, identity: UInt8, initSequence: [(register: Register, value: UInt8)]) {
        statusRegister = Register.statusReg.rawValue
        accelerometerOutput = Register.outXLXL.rawValue
        gyroscopeOutput = Register.outXLG.rawValue
        super.init(device: device, identityRegister: Register.whoAmI, identity: identity, initSequence: initSequence)
    }

    /// The latest specific force in g, chip axes; nil when STATUS_REG.XLDA is clear.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        try readNewBlock(status: statusRegister, readyMask: Self.accelerometerDataReady, output: accelerometerOutput)
            .map { Self.decodeAcceleration($0, gPerLSB: Self.gPerLSB) }
    }

    /// The latest angular rate in °/s, chip axes; nil when STATUS_REG.GDA is clear.
    /// - Throws: `I2CError`.
    public func readAngularRate() throws(I2CError) -> Vector3? {
        try readNewBlock(status: statusRegister, readyMask: Self.gyroscopeDataReady, output: gyroscopeOutput)
            .map { Self.decodeAngularRate($0, degreesPerSecondPerLSB: Self.degreesPerSecondPerLSB) }
    }

    /// Accelerometer bytes to specific force in g (flat and face up: +1 g on z).
    ///
    /// ```
    /// 0x28 OUTX_L_XL  0x29 OUTX_H_XL  0x2A OUTY_L_XL  0x2B OUTY_H_XL  0x2C OUTZ_L_XL  0x2D OUTZ_H_XL
    /// each axis int16 two's complement, low byte first (BLE = 0); the same addresses on every
    /// member (the LSM9DS1 writes OUT_X_L_XL, the LSM6DSOX OUTX_L_A)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUTX_L_XL on.
    ///   - gPerLSB: the scale of the configured range.
    public static func decodeAcceleration(_ bytes: RegisterBlock, gPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: gPerLSB)
    }

    /// Gyroscope bytes to angular rate in °/s.
    ///
    /// ```
    /// 0x22 OUTX_L_G  0x23 OUTX_H_G  0x24 OUTY_L_G  0x25 OUTY_H_G  0x26 OUTZ_L_G  0x27 OUTZ_H_G
    /// each axis int16 two's complement, low byte first; on the LSM9DS1 the block is at
    /// 0x18…0x1D (OUT_X_L_G …)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUTX_L_G on.
    ///   - degreesPerSecondPerLSB: the scale of the configured range.
    public static func decodeAngularRate(_ bytes: RegisterBlock, degreesPerSecondPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: degreesPerSecondPerLSB)
    }
}

// The CTRL1_XL and CTRL2_G codes of the LSM6DS33, LSM6DSL and LSM6DSOX. File-private: the
// LSM9DS1's die has its own codes at other bit positions, and must not see these.
extension LSM6DSFamily {
    /// CTRL1_XL ODR_XL[7:4] and CTRL2_G ODR_G[7:4] = 0011: 52 Hz.
    fileprivate static let outputRate52Hz: UInt8 = 0b0011 << 4
    /// CTRL1_XL FS_XL[3:2] = 10: ±4 g. Bits 1:0 stay 0; what they select differs by chip (see
    /// each chip's file).
    fileprivate static let accelerometerFullScale4g: UInt8 = 0b10 << 2
    /// CTRL2_G FS_G[3:2] = 01: ±500 °/s (FS_125[1] = 0).
    fileprivate static let gyroscopeFullScale500dps: UInt8 = 0b01 << 2
}
