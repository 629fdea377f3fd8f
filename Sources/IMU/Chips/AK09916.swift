@preconcurrency import Glibc
import Heading
import SystemSupport

/// Asahi Kasei AK09916: the magnetometer inside the ICM-20948, at 0x0C on the host bus once the
/// ICM-20948 is in bypass mode (`ICM20948.configure()` turns bypass on; until then nothing
/// acknowledges 0x0C).
///
/// Facts: `reference/sensors.md` §3.8. Continuous mode 4 (100 Hz), fixed 0.15 µT/LSB over
/// ±4912 µT; the chip has no range or filter settings.
///
/// The data registers are protected from the moment a read of them starts until ST2 is read:
/// a sample measured in between waits, so every read must end with ST2. This driver reads
/// ST1 through ST2 in one burst, which both checks DRDY and releases the protection.
///
/// Axes are the AK09916's own. They differ from the ICM-20948 accelerometer's: mag x = accel x,
/// mag y = −accel y, mag z = −accel z (sensors.md §3.8: SF-59, MPF-10, DPE-3). Board presets do
/// the remap.
public final class AK09916: MagnetometerDriver {
    /// The chip's name.
    public static let chipName = "AK09916"
    /// The only address: fixed inside the ICM-20948.
    public static let defaultAddress: UInt8 = 0x0C
    /// WIA1 (company, 0x48) and WIA2 (device, 0x09), read from WIA1 on. WIA2 tells it from the
    /// MPU-9250's AK8963, whose register 0x01 is INFO.
    public static let expectedIdentity: RegisterBlock = [0x48, 0x09]

    /// The registers this driver uses, by the datasheet's names.
    public enum Register: UInt8, Sendable, CaseIterable {
        /// Company ID, 0x48.
        case wia1 = 0x00
        /// Device ID, 0x09.
        case wia2 = 0x01
        /// Status 1: bit 0 DRDY, bit 1 DOR (a sample was skipped).
        case st1 = 0x10
        /// X low byte; HXL…HZH are int16 little-endian.
        case hxl = 0x11
        /// X high byte.
        case hxh = 0x12
        /// Y low byte.
        case hyl = 0x13
        /// Y high byte.
        case hyh = 0x14
        /// Z low byte.
        case hzl = 0x15
        /// Z high byte.
        case hzh = 0x16
        /// A dummy byte between the data and ST2.
        case tmps = 0x17
        /// Status 2: bit 3 HOFL (magnetic overflow). Reading it ends the data read.
        case st2 = 0x18
        /// Control 2: bits 4:0 MODE.
        case cntl2 = 0x31
        /// Control 3: bit 0 SRST (soft reset).
        case cntl3 = 0x32
    }

    /// CNTL2 modes.
    public enum Mode: UInt8, Sendable, CaseIterable {
        /// No measurement; the state every mode change passes through.
        case powerDown = 0x00
        /// One measurement, then power-down.
        case singleMeasurement = 0x01
        /// Continuous mode 1.
        case continuous10Hz = 0x02
        /// Continuous mode 2.
        case continuous20Hz = 0x04
        /// Continuous mode 3.
        case continuous50Hz = 0x06
        /// Continuous mode 4.
        case continuous100Hz = 0x08
    }

    /// µT per count, fixed.
    public static let microteslaPerLSB = 0.15
    /// The magnitude a single axis can measure, µT (±32752 counts).
    public static let fullScaleMicrotesla = 4912.0
    /// CNTL3 SRST.
    public static let softReset: UInt8 = 0x01
    /// ST1 DRDY.
    public static let dataReady: UInt8 = 0x01
    /// ST1 DOR: a sample arrived and went unread.
    public static let dataOverrun: UInt8 = 0x02
    /// ST2 HOFL: the field exceeded the measurement range; the sample is meaningless.
    public static let magneticOverflow: UInt8 = 0x08
    /// The mode configured.
    public static let mode = Mode.continuous100Hz
    /// Bytes in one read from ST1 through ST2.
    public static let sampleLength = 9

    /// How long to wait after a soft reset. Our notes give no figure; Pimoroni polls SRST until
    /// it clears, which takes well under this.
    public static let resetWait: Duration = .milliseconds(1)
    /// How long the chip must stay in power-down before another mode (≥ 100 µs).
    public static let powerDownWait: Duration = .microseconds(100)

    /// ST1 through ST2 to a field in µT.
    ///
    /// ```
    /// 0x10 ST1   bit 0 DRDY, bit 1 DOR
    /// 0x11 HXL   0x12 HXH   0x13 HYL   0x14 HYH   0x15 HZL   0x16 HZH   int16, little-endian
    /// 0x17 TMPS  (dummy)
    /// 0x18 ST2   bit 3 HOFL
    /// ```
    /// - Parameters:
    ///   - bytes: the nine bytes from ST1 on.
    ///   - microteslaPerLSB: the scale (0.15).
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        precondition(bytes.count >= 7, "ST1 and three int16 axes take seven bytes")
        func axis(_ index: Int) -> Double {
            Double(RegisterBytes.littleEndian(bytes, at: 1 + 2 * index))
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
    ///   - device: the chip at 0x0C, after the host ICM-20948 has enabled bypass.
    ///   - pause: blocks for a duration; tests pass one that only records.
    public init(device: any I2CDevice, pause: @escaping (Duration) -> Void) {
        self.device = device
        self.pause = pause
    }

    /// Whether WIA1 and WIA2 hold the AK09916's identity.
    /// - Throws: `I2CError` (ENXIO while the host's bypass is off).
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegisters(Register.wia1.rawValue, count: Self.expectedIdentity.count) == Self.expectedIdentity
    }

    /// Soft-resets the chip and starts continuous measurement at 100 Hz.
    ///
    /// Sequence: CNTL3 ← 0x01 (reset), wait; CNTL2 ← 0x00 (power-down), wait 100 µs;
    /// CNTL2 ← 0x08. A mode change must pass through power-down, which the explicit write makes
    /// certain whatever state the reset left.
    /// - Throws: `I2CError`.
    public func configure() throws(I2CError) {
        try device.writeRegister(Register.cntl3.rawValue, Self.softReset)
        pause(Self.resetWait)
        try device.writeRegister(Register.cntl2.rawValue, Mode.powerDown.rawValue)
        pause(Self.powerDownWait)
        try device.writeRegister(Register.cntl2.rawValue, Self.mode.rawValue)
    }

    /// The latest field in µT, chip axes; nil when DRDY is clear or the sample overflowed (HOFL),
    /// whose value the datasheet calls incorrect.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let bytes = try device.readExactly(Register.st1.rawValue, count: Self.sampleLength)
        guard bytes[0] & Self.dataReady != 0, bytes[8] & Self.magneticOverflow == 0 else { return nil }
        return Self.decodeField(bytes, microteslaPerLSB: Self.microteslaPerLSB)
    }
}
