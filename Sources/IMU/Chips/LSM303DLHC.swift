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
public final class LSM303DLHCMagnetometer: STSensor, MagnetometerDriver {
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
    /// sleep (CRA_REG_M ← 0x18, CRB_REG_M ← 0x20, MR_REG_M ← 0x00).
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.craRegM, outputRate75Hz),
        (.crbRegM, gain1p3Gauss),
        (.mrRegM, continuousConversion),
    ]

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the magnetometer (0x1E).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identityRegister: Register.whoAmIM, identity: Self.expectedIdentity,
            initSequence: Self.initSequence)
    }

    /// The latest field in µT, chip axes; nil when SR_REG_M.DRDY is clear.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        // The magnetometer auto-increments by itself (the kernel's multi_read_bit = false).
        try readNewBlock(
            status: Register.srRegM.rawValue, readyMask: Self.dataReady, output: Register.outXHM.rawValue
        ).map {
            Self.decodeField($0, microteslaPerLSBXY: Self.microteslaPerLSBXY, microteslaPerLSBZ: Self.microteslaPerLSBZ)
        }
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
    public static func decodeField(
        _ bytes: RegisterBlock, microteslaPerLSBXY: Double, microteslaPerLSBZ: Double
    ) -> Vector3 {
        precondition(bytes.count == STSensor.vectorByteCount, "an ST output block is six bytes")
        func count(_ index: Int) -> Double {
            Double(RegisterBytes.bigEndian(bytes, at: 2 * index))
        }
        let x = count(0), z = count(1), y = count(2)
        return Vector3(x * microteslaPerLSBXY, y * microteslaPerLSBXY, z * microteslaPerLSBZ)
    }
}

/// The accelerometer die of the ST LSM303DLHC (Adafruit 1120 and FLORA 1247, Pololu).
///
/// Facts: `reference/sensors.md` §3.2. A member of `LSM303AccelerometerFamily`, which holds the
/// register map, configuration (±4 g high-resolution, 100 Hz, block data update), reading and
/// the left-justified decoding; this file holds what is the DLHC's own: 2 mg per count.
///
/// WHO_AM_I_A (0x33) is the same as the LSM303AGR accelerometer's (and LIS3DH's); detection
/// tells the two LSM303s apart by their magnetometer at 0x1E.
public final class LSM303DLHCAccelerometer: LSM303AccelerometerFamily, AccelerometerDriver {
    /// The chip's name.
    public static let chipName = "LSM303DLHC"
    /// Specific force per 12-bit count in high-resolution mode at ±4 g: 2 mg.
    public static let gPerLSB = 2e-3

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the accelerometer (0x19).
    public init(device: any I2CDevice) {
        super.init(device: device, gPerLSB: Self.gPerLSB)
    }
}
