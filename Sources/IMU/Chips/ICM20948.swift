@preconcurrency import Glibc
import Heading
import SystemSupport

/// TDK InvenSense ICM-20948: accelerometer and gyroscope at 0x68 (AD0 low) or 0x69, with an
/// AK09916 magnetometer inside (see `AK09916`), reached through bypass mode.
///
/// Facts: `reference/sensors.md` §3.8. The register file has four banks of 128 registers, picked
/// with REG_BANK_SEL (0x7F, present in every bank). `configure()` leaves the chip in bank 0,
/// where every read is; reads do not reselect the bank.
///
/// Continuous sampling as configured:
/// - accelerometer: ±4 g (8192 LSB/g), 1125 Hz / (1 + 10) ≈ 102.3 Hz, DLPF setting 3 (about
///   50 Hz 3-dB bandwidth, the Nyquist limit of that rate). ±4 g rather than ±2 g so heel strikes
///   while walking do not clip the gravity estimate.
/// - gyroscope: ±500 °/s (65.5 LSB/(°/s)), 1100 Hz / (1 + 10) = 100 Hz, DLPF setting 3 (about
///   51 Hz); head and body turns stay well inside ±500 °/s.
/// - bypass: the internal I2C master off and INT_PIN_CFG.BYPASS_EN on, so the AK09916 answers
///   on the host bus at 0x0C.
/// - data ready: RAW_DATA_0_RDY_EN on; INT_STATUS_1 bit 0 is set on each new sample and cleared
///   by reading INT_STATUS_1.
///
/// Axes are the chip's own (flat and face up: +1 g on z). The AK09916's y and z point the other
/// way (sensors.md §3.8); board presets remap.
public final class ICM20948: AccelerometerDriver {
    /// The chip's name.
    public static let chipName = "ICM-20948"
    /// It has a gyroscope.
    public static let hasGyroscope = true
    /// The address with AD0 low (Waveshare Sense HAT (B), Pimoroni).
    public static let defaultAddress: UInt8 = 0x68
    /// The address with AD0 high (Adafruit's breakout).
    public static let alternateAddress: UInt8 = 0x69
    /// WHO_AM_I (bank 0, 0x00).
    public static let expectedIdentity: UInt8 = 0xEA

    /// The registers this driver uses, by the datasheet's names, with their bank.
    public enum Register: Sendable, CaseIterable {
        /// REG_BANK_SEL: user bank in bits 5:4; present in every bank.
        case regBankSel
        /// Bank 0 WHO_AM_I (0xEA).
        case whoAmI
        /// Bank 0 USER_CTRL: bit 5 I2C_MST_EN.
        case userCtrl
        /// Bank 0 PWR_MGMT_1: bit 7 DEVICE_RESET, bit 6 SLEEP, bits 2:0 CLKSEL.
        case pwrMgmt1
        /// Bank 0 PWR_MGMT_2: bits 5:3 accelerometer axes off, bits 2:0 gyroscope axes off.
        case pwrMgmt2
        /// Bank 0 INT_PIN_CFG: bit 1 BYPASS_EN.
        case intPinCfg
        /// Bank 0 INT_ENABLE_1: bit 0 RAW_DATA_0_RDY_EN.
        case intEnable1
        /// Bank 0 INT_STATUS_1: bit 0 RAW_DATA_0_RDY_INT, cleared by reading it.
        case intStatus1
        /// Bank 0 ACCEL_XOUT_H, the first of six accelerometer and six gyroscope bytes.
        case accelXoutH
        /// Bank 0 GYRO_XOUT_H.
        case gyroXoutH
        /// Bank 2 GYRO_SMPLRT_DIV: rate = 1.1 kHz / (1 + div).
        case gyroSmplrtDiv
        /// Bank 2 GYRO_CONFIG_1: bits 5:3 DLPFCFG, bits 2:1 FS_SEL, bit 0 FCHOICE.
        case gyroConfig1
        /// Bank 2 ACCEL_SMPLRT_DIV_1: divider bits 11:8.
        case accelSmplrtDiv1
        /// Bank 2 ACCEL_SMPLRT_DIV_2: divider bits 7:0; rate = 1.125 kHz / (1 + div).
        case accelSmplrtDiv2
        /// Bank 2 ACCEL_CONFIG: bits 5:3 DLPFCFG, bits 2:1 FS_SEL, bit 0 FCHOICE.
        case accelConfig

        /// The user bank the register lives in (REG_BANK_SEL answers in all of them).
        public var bank: UInt8 {
            switch self {
            case .regBankSel, .whoAmI, .userCtrl, .pwrMgmt1, .pwrMgmt2, .intPinCfg, .intEnable1, .intStatus1,
                .accelXoutH, .gyroXoutH:
                return 0
            case .gyroSmplrtDiv, .gyroConfig1, .accelSmplrtDiv1, .accelSmplrtDiv2, .accelConfig:
                return 2
            }
        }

        /// The register's address within its bank.
        public var address: UInt8 {
            switch self {
            case .regBankSel: return 0x7F
            case .whoAmI: return 0x00
            case .userCtrl: return 0x03
            case .pwrMgmt1: return 0x06
            case .pwrMgmt2: return 0x07
            case .intPinCfg: return 0x0F
            case .intEnable1: return 0x11
            case .intStatus1: return 0x1A
            case .accelXoutH: return 0x2D
            case .gyroXoutH: return 0x33
            case .gyroSmplrtDiv: return 0x00
            case .gyroConfig1: return 0x01
            case .accelSmplrtDiv1: return 0x10
            case .accelSmplrtDiv2: return 0x11
            case .accelConfig: return 0x14
            }
        }
    }

    /// Accelerometer full scale, ACCEL_CONFIG FS_SEL (bits 2:1).
    public enum AccelerometerRange: UInt8, Sendable, CaseIterable {
        /// ±2 g.
        case g2 = 0
        /// ±4 g.
        case g4 = 1
        /// ±8 g.
        case g8 = 2
        /// ±16 g.
        case g16 = 3

        /// Counts per g: 16384, 8192, 4096, 2048.
        public var lsbPerG: Double { 16384 / Double(1 << rawValue) }
        /// g per count.
        public var gPerLSB: Double { 1 / lsbPerG }
    }

    /// Gyroscope full scale, GYRO_CONFIG_1 FS_SEL (bits 2:1).
    public enum GyroscopeRange: UInt8, Sendable, CaseIterable {
        /// ±250 °/s.
        case dps250 = 0
        /// ±500 °/s.
        case dps500 = 1
        /// ±1000 °/s.
        case dps1000 = 2
        /// ±2000 °/s.
        case dps2000 = 3

        /// Counts per °/s: 131, 65.5, 32.8, 16.4.
        public var lsbPerDegreePerSecond: Double { [131, 65.5, 32.8, 16.4][Int(rawValue)] }
        /// °/s per count.
        public var degreesPerSecondPerLSB: Double { 1 / lsbPerDegreePerSecond }
    }

    /// Bank-select value: the bank number sits in bits 5:4.
    public static func bankSelectValue(_ bank: UInt8) -> UInt8 { (bank & 0x03) << 4 }

    /// PWR_MGMT_1 DEVICE_RESET: resets every register; reads back 1 until the reset is done.
    public static let deviceReset: UInt8 = 0x80
    /// PWR_MGMT_1 awake (SLEEP cleared) with CLKSEL 1: the best available clock (PLL when ready).
    public static let wakeWithAutoClock: UInt8 = 0x01
    /// PWR_MGMT_2 with every accelerometer and gyroscope axis on.
    public static let allAxesOn: UInt8 = 0x00
    /// USER_CTRL with the internal I2C master (I2C_MST_EN, bit 5) off: bypass needs it off.
    public static let userCtrlMasterOff: UInt8 = 0x00
    /// INT_PIN_CFG BYPASS_EN: the auxiliary bus, and so the AK09916, joins the host bus.
    public static let bypassEnable: UInt8 = 0x02
    /// INT_ENABLE_1 RAW_DATA_0_RDY_EN.
    public static let rawDataReadyEnable: UInt8 = 0x01
    /// INT_STATUS_1 RAW_DATA_0_RDY_INT.
    public static let rawDataReady: UInt8 = 0x01
    /// Sample-rate divider for both sensors: ≈ 102.3 Hz accelerometer, 100 Hz gyroscope.
    public static let sampleRateDivider: UInt16 = 10
    /// DLPFCFG 3: about 50 Hz 3-dB bandwidth on both sensors at this rate.
    public static let lowPassSetting: UInt8 = 3
    /// The accelerometer range configured.
    public static let accelerometerRange = AccelerometerRange.g4
    /// The gyroscope range configured.
    public static let gyroscopeRange = GyroscopeRange.dps500

    /// How long to wait after DEVICE_RESET before asking whether it is done (Pimoroni waits 10 ms).
    public static let resetWait: Duration = .milliseconds(10)
    /// How many times to look for the end of the reset before giving up.
    public static let resetPolls = 10

    /// ACCEL_CONFIG / GYRO_CONFIG_1 from its fields; FCHOICE (bit 0) on, which enables the
    /// low-pass filter and the sample-rate divider.
    ///
    /// ```
    /// bit  7 6 | 5 4 3   | 2 1    | 0
    ///      —   | DLPFCFG | FS_SEL | FCHOICE
    /// ```
    public static func configValue(lowPass: UInt8, fullScale: UInt8) -> UInt8 {
        (lowPass & 0x07) << 3 | (fullScale & 0x03) << 1 | 0x01
    }

    /// Accelerometer bytes to specific force in g.
    ///
    /// ```
    /// 0x2D ACCEL_XOUT_H  0x2E ACCEL_XOUT_L  0x2F ACCEL_YOUT_H
    /// 0x30 ACCEL_YOUT_L  0x31 ACCEL_ZOUT_H  0x32 ACCEL_ZOUT_L     int16, big-endian
    /// ```
    /// - Parameters:
    ///   - bytes: six bytes from ACCEL_XOUT_H on (more are ignored).
    ///   - gPerLSB: the scale of the configured range.
    public static func decodeAcceleration(_ bytes: RegisterBlock, gPerLSB: Double) -> Vector3 {
        bigEndianVector(bytes, offset: 0) * gPerLSB
    }

    /// Gyroscope bytes to angular rate in °/s.
    ///
    /// ```
    /// 0x33 GYRO_XOUT_H  0x34 GYRO_XOUT_L  0x35 GYRO_YOUT_H
    /// 0x36 GYRO_YOUT_L  0x37 GYRO_ZOUT_H  0x38 GYRO_ZOUT_L        int16, big-endian
    /// ```
    /// - Parameters:
    ///   - bytes: six bytes from GYRO_XOUT_H on.
    ///   - degreesPerSecondPerLSB: the scale of the configured range.
    public static func decodeAngularRate(_ bytes: RegisterBlock, degreesPerSecondPerLSB: Double) -> Vector3 {
        bigEndianVector(bytes, offset: 0) * degreesPerSecondPerLSB
    }

    private static func bigEndianVector(_ bytes: RegisterBlock, offset: Int) -> Vector3 {
        precondition(bytes.count >= offset + 6, "three int16 axes take six bytes")
        func axis(_ index: Int) -> Double {
            Double(RegisterBytes.bigEndian(bytes, at: offset + 2 * index))
        }
        return Vector3(axis(0), axis(1), axis(2))
    }

    private let device: any I2CDevice
    private let pause: (Duration) -> Void
    // INT_STATUS_1 clears on read, and one status read covers both sensors: the sample it
    // announces is kept here until each half has been asked for once.
    private var pendingAcceleration: Vector3?
    private var pendingAngularRate: Vector3?

    /// A driver for the chip at `device`; waits with `ThreadSleep`.
    public convenience init(device: any I2CDevice) {
        self.init(device: device, pause: ThreadSleep.sleep(for:))
    }

    /// A driver for the chip at `device`.
    /// - Parameters:
    ///   - device: the chip (0x68 or 0x69).
    ///   - pause: blocks for a duration; tests pass one that only records.
    public init(device: any I2CDevice, pause: @escaping (Duration) -> Void) {
        self.device = device
        self.pause = pause
    }

    /// Whether the chip answers with the ICM-20948's identity. Selects bank 0 first when the
    /// chip is elsewhere (a process that stopped mid-configuration can leave it in bank 2, where
    /// 0x00 is GYRO_SMPLRT_DIV).
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        let bankSelect = try device.readRegister(Register.regBankSel.address)
        if bankSelect != Self.bankSelectValue(0) {
            try device.writeRegister(Register.regBankSel.address, Self.bankSelectValue(0))
        }
        return try device.readRegister(Register.whoAmI.address) == Self.expectedIdentity
    }

    /// Resets the chip and starts continuous sampling with bypass on (see the type's summary).
    ///
    /// Sequence: bank 0; PWR_MGMT_1 ← 0x80, wait until DEVICE_RESET reads 0; PWR_MGMT_1 ← 0x01;
    /// PWR_MGMT_2 ← 0x00; bank 2; GYRO_SMPLRT_DIV ← 10; GYRO_CONFIG_1 ← 0x1B;
    /// ACCEL_SMPLRT_DIV_1/2 ← 0, 10; ACCEL_CONFIG ← 0x1B; bank 0; USER_CTRL ← 0x00;
    /// INT_PIN_CFG ← 0x02; INT_ENABLE_1 ← 0x01.
    /// - Throws: `I2CError`; ETIMEDOUT on PWR_MGMT_1 when the reset never finishes.
    public func configure() throws(I2CError) {
        pendingAcceleration = nil
        pendingAngularRate = nil
        try selectBank(0)
        try write(.pwrMgmt1, Self.deviceReset)
        try waitForReset()
        try write(.pwrMgmt1, Self.wakeWithAutoClock)
        try write(.pwrMgmt2, Self.allAxesOn)
        try selectBank(2)
        try write(.gyroSmplrtDiv, UInt8(Self.sampleRateDivider & 0xFF))
        try write(.gyroConfig1, Self.configValue(lowPass: Self.lowPassSetting, fullScale: Self.gyroscopeRange.rawValue))
        try write(.accelSmplrtDiv1, UInt8(Self.sampleRateDivider >> 8 & 0x0F))
        try write(.accelSmplrtDiv2, UInt8(Self.sampleRateDivider & 0xFF))
        try write(
            .accelConfig, Self.configValue(lowPass: Self.lowPassSetting, fullScale: Self.accelerometerRange.rawValue))
        try selectBank(0)
        try write(.userCtrl, Self.userCtrlMasterOff)
        try write(.intPinCfg, Self.bypassEnable)
        try write(.intEnable1, Self.rawDataReadyEnable)
    }

    /// The latest specific force in g, chip axes; nil when the chip has no new sample.
    /// - Throws: `I2CError`.
    public func readAcceleration() throws(I2CError) -> Vector3? {
        if pendingAcceleration == nil { try fetchSample() }
        defer { pendingAcceleration = nil }
        return pendingAcceleration
    }

    /// The latest angular rate in °/s, chip axes; nil when the chip has no new sample.
    /// - Throws: `I2CError`.
    public func readAngularRate() throws(I2CError) -> Vector3? {
        if pendingAngularRate == nil { try fetchSample() }
        defer { pendingAngularRate = nil }
        return pendingAngularRate
    }

    /// Reads INT_STATUS_1 and, when it announces a sample, all twelve data bytes in one burst
    /// (one burst, so the accelerometer and gyroscope halves belong to the same sample).
    private func fetchSample() throws(I2CError) {
        let status = try device.readRegister(Register.intStatus1.address)
        guard status & Self.rawDataReady != 0 else { return }
        let bytes = try device.readExactly(Register.accelXoutH.address, count: 12)
        pendingAcceleration = Self.decodeAcceleration(bytes, gPerLSB: Self.accelerometerRange.gPerLSB)
        pendingAngularRate = Self.decodeAngularRate(
            RegisterBlock(bytes[6..<12]), degreesPerSecondPerLSB: Self.gyroscopeRange.degreesPerSecondPerLSB)
    }

    private func waitForReset() throws(I2CError) {
        for _ in 0..<Self.resetPolls {
            pause(Self.resetWait)
            if try device.readRegister(Register.pwrMgmt1.address) & Self.deviceReset == 0 { return }
        }
        throw I2CError(
            bus: device.bus, address: device.address, register: Register.pwrMgmt1.address,
            operation: "wait for DEVICE_RESET to clear", errno: ETIMEDOUT)
    }

    private func selectBank(_ bank: UInt8) throws(I2CError) {
        try device.writeRegister(Register.regBankSel.address, Self.bankSelectValue(bank))
    }

    private func write(_ register: Register, _ value: UInt8) throws(I2CError) {
        try device.writeRegister(register.address, value)
    }
}
