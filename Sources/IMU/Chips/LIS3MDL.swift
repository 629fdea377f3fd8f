import Heading

/// ST LIS3MDL three-axis magnetometer (BerryIMU v3, BerryGPS-IMU v3/v4, Adafruit 4485, Pololu
/// AltIMU-10 v5).
///
/// Facts: `reference/sensors.md` §3.5. Configured for ±4 gauss (6842 LSB/gauss), ultra-high
/// performance on all three axes, 80 Hz, continuous conversion, block data update. Reads of the
/// output set the sub-address MSB (0x80), which the datasheet requires for auto-increment.
///
/// WHO_AM_I (0x3D) is the same as the LSM9DS1 magnetometer's; detection tells them apart by
/// looking for the LSM9DS1 accelerometer/gyroscope (0x68 at 0x6A/0x6B).
public final class LIS3MDL: MagnetometerDriver {
    /// The registers, with the datasheet's names and addresses.
    public enum Register: UInt8, Sendable, CaseIterable {
        case whoAmI = 0x0F
        case ctrlReg1 = 0x20
        case ctrlReg2 = 0x21
        case ctrlReg3 = 0x22
        case ctrlReg4 = 0x23
        case ctrlReg5 = 0x24
        case statusReg = 0x27
        case outXL = 0x28
        case outXH = 0x29
        case outYL = 0x2A
        case outYH = 0x2B
        case outZL = 0x2C
        case outZH = 0x2D
        case tempOutL = 0x2E
        case tempOutH = 0x2F
        case intCfg = 0x30
        case intSrc = 0x31
        case intThsL = 0x32
        case intThsH = 0x33
    }

    /// The chip's name.
    public static let chipName = "LIS3MDL"
    /// The address with SA1 low (BerryIMU, Adafruit).
    public static let defaultAddress: UInt8 = 0x1C
    /// The address with SA1 high (Pololu's default).
    public static let alternateAddress: UInt8 = 0x1E
    /// What WHO_AM_I reads; the LSM9DS1 magnetometer reads the same.
    public static let expectedIdentity: UInt8 = 0x3D
    /// The field per count at ±4 gauss: 6842 LSB per gauss, 1 gauss = 100 µT.
    public static let microteslaPerLSB = 100.0 / 6842.0

    /// CTRL_REG1 OM[6:5] = 11: ultra-high performance on X and Y, the lowest noise; the extra
    /// fraction of a milliampere does not matter on a Pi.
    static let ultraHighPerformanceXY: UInt8 = 0b11 << 5
    /// CTRL_REG1 DO[4:2] = 111: 80 Hz (FAST_ODR, ST and TEMP_EN stay 0).
    static let outputRate80Hz: UInt8 = 0b111 << 2
    /// CTRL_REG2 FS[6:5] = 00: ±4 gauss, the finest scale; Earth's field is under 0.7 gauss.
    static let fullScale4Gauss: UInt8 = 0b00 << 5
    /// CTRL_REG3 MD[1:0] = 00: continuous conversion (reset leaves 11, power-down).
    static let continuousConversion: UInt8 = 0b00
    /// CTRL_REG4 OMZ[3:2] = 11: ultra-high performance on Z too. BLE[1] = 0: little-endian.
    static let ultraHighPerformanceZ: UInt8 = 0b11 << 2
    /// CTRL_REG5 BDU[6]: a sample's bytes are not overwritten until all of them have been read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// STATUS_REG XDA/YDA/ZDA[2:0]: new data on an axis (the kernel's data-ready mask; ZYXDA in
    /// bit 3 is not relied on, sensors.md §8 item 11).
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes `configure()` makes, in order: scale and operating modes first, continuous
    /// conversion last, so the first sample is taken with the final settings.
    static let initSequence: [(register: Register, value: UInt8)] = [
        (.ctrlReg2, fullScale4Gauss),
        (.ctrlReg1, ultraHighPerformanceXY | outputRate80Hz),
        (.ctrlReg4, ultraHighPerformanceZ),
        (.ctrlReg5, blockDataUpdate),
        (.ctrlReg3, continuousConversion),
    ]

    private let device: any I2CDevice

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x1C or 0x1E).
    public init(device: any I2CDevice) { self.device = device }

    /// Whether WHO_AM_I reads 0x3D (also true of an LSM9DS1 magnetometer).
    /// - Throws: `I2CError` when the chip does not answer.
    public func hasExpectedIdentity() throws(I2CError) -> Bool {
        try device.readRegister(Register.whoAmI.rawValue) == Self.expectedIdentity
    }

    /// Starts continuous sampling: CTRL_REG2 ← 0x00, CTRL_REG1 ← 0x7C, CTRL_REG4 ← 0x0C,
    /// CTRL_REG5 ← 0x40, CTRL_REG3 ← 0x00.
    /// - Throws: `I2CError` from the first write that fails.
    public func configure() throws(I2CError) {
        for write in Self.initSequence {
            try device.writeRegister(write.register.rawValue, write.value)
        }
    }

    /// The latest field in µT, chip axes; nil when STATUS_REG announces no new sample.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        let status = try device.readRegister(Register.statusReg.rawValue)
        guard status & Self.newDataMask != 0 else { return nil }
        let bytes = try STSensor.readBlock(
            device, from: Register.outXL.rawValue | STSensor.multiReadBit, count: STSensor.vectorByteCount)
        return Self.decodeField(bytes, microteslaPerLSB: Self.microteslaPerLSB)
    }

    /// Output bytes to the field in µT.
    ///
    /// ```
    /// 0x28 OUT_X_L  0x29 OUT_X_H  0x2A OUT_Y_L  0x2B OUT_Y_H  0x2C OUT_Z_L  0x2D OUT_Z_H
    /// each axis int16 two's complement, low byte first (CTRL_REG4 BLE = 0)
    /// ```
    /// - Parameters:
    ///   - bytes: the six bytes from OUT_X_L on.
    ///   - microteslaPerLSB: the scale of the configured range.
    public static func decodeField(_ bytes: [UInt8], microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }
}
