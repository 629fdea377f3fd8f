@preconcurrency import Glibc
import Heading
import SystemSupport

/// QST QMC5883L magnetometer at 0x0D: the chip on most GY-271 clones sold as "HMC5883L".
///
/// Facts: `reference/sensors.md` §3.10. Configured for continuous measurement at 100 Hz, ±8 G
/// (3000 LSB/G), over-sampling 512 (the chip's lowest-noise setting). ±8 G rather than ±2 G
/// because a wearable puts the vibration motor's magnet and the battery close by: hard iron must
/// not push the Earth's field out of range before calibration can remove it.
///
/// Data ready: STATUS bit 0 DRDY is set when a sample is loaded and cleared by reading any data
/// register, so the driver reads STATUS first and the data only when DRDY is set.
public final class QMC5883L: MagnetometerDriver {
    /// The chip's name.
    public static let chipName = "QMC5883L"
    /// The only address.
    public static let defaultAddress: UInt8 = 0x0D
    /// Chip ID register 0x0D.
    public static let expectedIdentity: UInt8 = 0xFF

    /// The registers, by the datasheet's names.
    public enum Register: UInt8, Sendable, CaseIterable {
        /// Data output X LSB; X, Y, Z are int16 little-endian from here.
        case dataOutputXLSB = 0x00
        /// Data output X MSB.
        case dataOutputXMSB = 0x01
        /// Data output Y LSB.
        case dataOutputYLSB = 0x02
        /// Data output Y MSB.
        case dataOutputYMSB = 0x03
        /// Data output Z LSB.
        case dataOutputZLSB = 0x04
        /// Data output Z MSB.
        case dataOutputZMSB = 0x05
        /// Status: bit 0 DRDY, bit 1 OVL (out of range), bit 2 DOR (a sample went unread).
        case status = 0x06
        /// Temperature LSB (relative only).
        case temperatureLSB = 0x07
        /// Temperature MSB.
        case temperatureMSB = 0x08
        /// Control 1: OSR bits 7:6, RNG bits 5:4, ODR bits 3:2, MODE bits 1:0.
        case control1 = 0x09
        /// Control 2: bit 7 SOFT_RST, bit 6 ROL_PNT (pointer roll-over), bit 0 INT_ENB (1 = pin off).
        case control2 = 0x0A
        /// SET/RESET period; the datasheet asks for 0x01.
        case setResetPeriod = 0x0B
        /// Chip ID, 0xFF.
        case chipID = 0x0D
    }

    /// Full scale, CONTROL1 RNG (bits 5:4).
    public enum Range: UInt8, Sendable, CaseIterable {
        /// ±2 G, 12000 LSB/G.
        case gauss2 = 0
        /// ±8 G, 3000 LSB/G.
        case gauss8 = 1

        /// Counts per gauss.
        public var lsbPerGauss: Double { self == .gauss2 ? 12000 : 3000 }
        /// µT per count (1 G = 100 µT).
        public var microteslaPerLSB: Double { microteslaPerGauss / lsbPerGauss }
    }

    /// Output data rate, CONTROL1 ODR (bits 3:2).
    public enum OutputDataRate: UInt8, Sendable, CaseIterable {
        /// 10 Hz.
        case hz10 = 0
        /// 50 Hz.
        case hz50 = 1
        /// 100 Hz.
        case hz100 = 2
        /// 200 Hz.
        case hz200 = 3
    }

    /// 1 G = 100 µT.
    public static let microteslaPerGauss = 100.0
    /// CONTROL1 MODE continuous.
    public static let continuousMode: UInt8 = 0x01
    /// CONTROL1 OSR 512 (code 0).
    public static let oversampling512: UInt8 = 0x00
    /// CONTROL2 SOFT_RST.
    public static let softReset: UInt8 = 0x80
    /// CONTROL2 with INT_ENB set (interrupt pin off: nothing is wired to it) and no roll-over.
    public static let interruptPinOff: UInt8 = 0x01
    /// SET/RESET period value from the datasheet.
    public static let recommendedSetResetPeriod: UInt8 = 0x01
    /// STATUS DRDY.
    public static let dataReady: UInt8 = 0x01
    /// STATUS OVL: some axis is out of range; the sample is clipped.
    public static let overflow: UInt8 = 0x02
    /// STATUS DOR.
    public static let dataSkipped: UInt8 = 0x04
    /// The range configured.
    public static let range = Range.gauss8
    /// The rate configured.
    public static let outputDataRate = OutputDataRate.hz100
    /// How long to wait after a soft reset: our notes give no figure, so the 10 ms Rigacci's
    /// driver leaves after every write.
    public static let resetWait: Duration = .milliseconds(10)

    /// CONTROL1 from its fields.
    ///
    /// ```
    /// bit  7 6 | 5 4 | 3 2 | 1 0
    ///      OSR | RNG | ODR | MODE
    /// ```
    public static func control1Value(
        oversampling: UInt8, range: Range, outputDataRate: OutputDataRate, mode: UInt8
    ) -> UInt8 {
        (oversampling & 0x03) << 6 | range.rawValue << 4 | outputDataRate.rawValue << 2 | (mode & 0x03)
    }

    /// Data bytes to a field in µT.
    ///
    /// ```
    /// 0x00 X LSB  0x01 X MSB  0x02 Y LSB  0x03 Y MSB  0x04 Z LSB  0x05 Z MSB   int16, little-endian
    /// ```
    /// - Parameters:
    ///   - bytes: six bytes from 0x00 on.
    ///   - microteslaPerLSB: the configured range's scale.
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        precondition(bytes.count >= 6, "three int16 axes take six bytes")
        func axis(_ index: Int) -> Double {
            Double(RegisterBytes.littleEndian(bytes, at: 2 * index))
        }
        return Vector3(axis(0), axis(1), axis(2)) * microteslaPerLSB
    }

    private let device: any I2CDevice
    private let pause: (Duration) -> Void

    /// A driver for the chip at `device`; waits with `ThreadSleep`.
    public convenience init(device: any I2CDevice) {
        self.init(device: device, pause: ThreadSleep.sleep(for:))
    }

    /// A driver for the chip at `device`.
    /// - Parameters:
    ///   - device: the chip at 0x0D.
    ///   - pause: blocks for a duration; tests pass one that only records.
    public init(device: any I2CDevice, pause: @escaping (Duration) -> Void) {
        self.device = device
        self.pause = pause
    }

    /// Whether the chip ID register reads 0xFF. A weak check (an absent register on another chip
    /// can read 0xFF too), but the only ID the part has; 0x0D is no other chip's address.
    /// - Throws: `I2CError`.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.chipID.rawValue) == Self.expectedIdentity
    }

    /// Soft-resets the chip and starts continuous measurement.
    ///
    /// Sequence: CONTROL2 ← 0x80 (reset), wait; CONTROL2 ← 0x01; SET/RESET ← 0x01;
    /// CONTROL1 ← 0x19 (OSR 512, ±8 G, 100 Hz, continuous).
    /// - Throws: `I2CError`.
    public func configure() throws(I2CError) {
        try device.writeRegister(Register.control2.rawValue, Self.softReset)
        pause(Self.resetWait)
        try device.writeRegister(Register.control2.rawValue, Self.interruptPinOff)
        try device.writeRegister(Register.setResetPeriod.rawValue, Self.recommendedSetResetPeriod)
        try device.writeRegister(
            Register.control1.rawValue,
            Self.control1Value(
                oversampling: Self.oversampling512, range: Self.range, outputDataRate: Self.outputDataRate,
                mode: Self.continuousMode))
    }

    /// The latest field in µT, chip axes; nil without a new sample or when it is out of range
    /// (OVL), where its value is clipped and would mislead the heading.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.status.rawValue)
        guard status & Self.dataReady != 0 else { return nil }
        // Read even an overflowed sample: the read is what clears DRDY.
        let bytes = try device.readExactly(Register.dataOutputXLSB.rawValue, count: 6)
        guard status & Self.overflow == 0 else { return nil }
        return Self.decodeField(bytes, microteslaPerLSB: Self.range.microteslaPerLSB)
    }
}
