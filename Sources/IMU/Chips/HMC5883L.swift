@preconcurrency import Glibc
import Heading

/// Honeywell HMC5883L magnetometer at 0x1E (original GY-271 boards; clones carry a QMC5883L).
///
/// Facts: `reference/sensors.md` §3.11. Configured for continuous measurement at 75 Hz (the
/// fastest continuous rate) with 8-sample averaging, gain ±1.3 G (1090 LSB/G).
///
/// Data ready: the status register's RDY bit is set when all six data registers hold a new
/// sample and cleared only while the chip writes the next one; reading does not clear it. So
/// RDY alone cannot say whether a sample was already returned, and the driver also compares the
/// raw bytes with the last sample it returned: the same bytes are treated as no new sample
/// (a repeat of identical counts on all three axes carries no new information anyway).
///
/// The address pointer wraps from 0x08 back to 0x03, so the status byte cannot be read in the
/// same burst as the data; it takes its own read.
public final class HMC5883L: MagnetometerDriver {
    /// The chip's name.
    public static let chipName = "HMC5883L"
    /// The only address.
    public static let defaultAddress: UInt8 = 0x1E
    /// Identification registers A, B, C: "H43".
    public static let expectedIdentity: RegisterBlock = [0x48, 0x34, 0x33]

    /// The registers, by the datasheet's names.
    public enum Register: UInt8, Sendable, CaseIterable {
        /// Configuration A: MA bits 6:5 (averaging), DO bits 4:2 (rate), MS bits 1:0 (bias).
        case configurationA = 0x00
        /// Configuration B: GN bits 7:5 (gain).
        case configurationB = 0x01
        /// Mode: MD bits 1:0 (0 continuous, 1 single, 2/3 idle).
        case mode = 0x02
        /// Data output X MSB; the data are int16 big-endian in the order X, Z, Y.
        case dataOutputXMSB = 0x03
        /// Data output X LSB.
        case dataOutputXLSB = 0x04
        /// Data output Z MSB.
        case dataOutputZMSB = 0x05
        /// Data output Z LSB.
        case dataOutputZLSB = 0x06
        /// Data output Y MSB.
        case dataOutputYMSB = 0x07
        /// Data output Y LSB.
        case dataOutputYLSB = 0x08
        /// Status: bit 0 RDY, bit 1 LOCK.
        case status = 0x09
        /// Identification A, 'H'.
        case identificationA = 0x0A
        /// Identification B, '4'.
        case identificationB = 0x0B
        /// Identification C, '3'.
        case identificationC = 0x0C
    }

    /// Gain, configuration B GN (bits 7:5).
    public enum Gain: UInt8, Sendable, CaseIterable {
        /// ±0.88 G, 1370 LSB/G.
        case gauss0_88 = 0
        /// ±1.3 G, 1090 LSB/G (the power-on default).
        case gauss1_3 = 1
        /// ±1.9 G, 820 LSB/G.
        case gauss1_9 = 2
        /// ±2.5 G, 660 LSB/G.
        case gauss2_5 = 3
        /// ±4.0 G, 440 LSB/G.
        case gauss4_0 = 4
        /// ±4.7 G, 390 LSB/G.
        case gauss4_7 = 5
        /// ±5.6 G, 330 LSB/G.
        case gauss5_6 = 6
        /// ±8.1 G, 230 LSB/G.
        case gauss8_1 = 7

        /// Counts per gauss.
        public var lsbPerGauss: Double { [1370, 1090, 820, 660, 440, 390, 330, 230][Int(rawValue)] }
        /// µT per count (1 G = 100 µT).
        public var microteslaPerLSB: Double { 100 / lsbPerGauss }
        /// Configuration B's value.
        public var configurationBValue: UInt8 { rawValue << 5 }
    }

    /// Configuration A: 8-sample average (MA 11), 75 Hz (DO 110), normal measurement (MS 00).
    public static let configurationAValue: UInt8 = 0x78
    /// Mode register MD 00: continuous measurement.
    public static let continuousMode: UInt8 = 0x00
    /// The gain configured.
    public static let gain = Gain.gauss1_3
    /// Status RDY.
    public static let ready: UInt8 = 0x01
    /// Status LOCK: some but not all data registers have been read; new samples wait.
    public static let lock: UInt8 = 0x02
    /// The value an axis reads when its measurement overflowed.
    public static let overflowCount: Int16 = -4096

    /// Data bytes to a field in µT, chip axes (x, y, z).
    ///
    /// ```
    /// 0x03 X MSB  0x04 X LSB  0x05 Z MSB  0x06 Z LSB  0x07 Y MSB  0x08 Y LSB   int16, big-endian
    /// ```
    /// Note the order X, Z, Y.
    /// - Parameters:
    ///   - bytes: six bytes from 0x03 on.
    ///   - microteslaPerLSB: the configured gain's scale.
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        let counts = rawCounts(bytes)
        return Vector3(Double(counts.x), Double(counts.y), Double(counts.z)) * microteslaPerLSB
    }

    /// Whether any axis of a sample reads the overflow value −4096.
    public static func isOverflow(_ bytes: RegisterBlock) -> Bool {
        let counts = rawCounts(bytes)
        return counts.x == overflowCount || counts.y == overflowCount || counts.z == overflowCount
    }

    private static func rawCounts(_ bytes: RegisterBlock) -> (x: Int16, y: Int16, z: Int16) {
        precondition(bytes.count >= 6, "three int16 axes take six bytes")
        func word(_ index: Int) -> Int16 {
            RegisterBytes.bigEndian(bytes, at: 2 * index)
        }
        return (x: word(0), y: word(2), z: word(1))
    }

    private let device: any I2CDevice
    private var lastSample: RegisterBlock?

    /// A driver for the chip at `device`.
    public init(device: any I2CDevice) {
        self.device = device
    }

    /// Whether identification registers A–C read "H43". Check the ST identities at 0x1E first:
    /// whether an LSM303DLHC also answers "H43" is unconfirmed (sensors.md §1.1).
    /// - Throws: `I2CError`.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegisters(Register.identificationA.rawValue, count: Self.expectedIdentity.count)
            == Self.expectedIdentity
    }

    /// Starts continuous measurement.
    ///
    /// Sequence: configuration A ← 0x78, configuration B ← 0x20, mode ← 0x00.
    /// - Throws: `I2CError`.
    public func configure() throws(I2CError) {
        lastSample = nil
        try device.writeRegister(Register.configurationA.rawValue, Self.configurationAValue)
        try device.writeRegister(Register.configurationB.rawValue, Self.gain.configurationBValue)
        try device.writeRegister(Register.mode.rawValue, Self.continuousMode)
    }

    /// The latest field in µT, chip axes; nil before the first sample, when the sample is the one
    /// already returned, or when an axis overflowed.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.status.rawValue)
        guard status & Self.ready != 0 else { return nil }
        // All six bytes in one read: a partial read would lock the data registers.
        let bytes = try device.readExactly(Register.dataOutputXMSB.rawValue, count: 6)
        guard bytes != lastSample else { return nil }
        lastSample = bytes
        guard !Self.isOverflow(bytes) else { return nil }
        return Self.decodeField(bytes, microteslaPerLSB: Self.gain.microteslaPerLSB)
    }
}
