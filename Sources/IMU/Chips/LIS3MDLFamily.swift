import Heading

/// The magnetometer driver the ST LIS3MDL and the LSM9DS1's magnetometer die share: one
/// register map (the LSM9DS1 datasheet appends _M to every name), one configuration and one read
/// path. The chips differ in sensitivity and in CTRL_REG1 bit 7, which is TEMP_COMP on the
/// LSM9DS1 and TEMP_EN on the LIS3MDL; both read 0x3D from WHO_AM_I. Each chip's file holds what
/// is its own and passes it to the initializer here; this class is not used on its own.
///
/// Facts: `reference/sensors.md` §3.5 and §3.7. Configured for ±4 gauss, the finest scale
/// (Earth's field is under 0.7 gauss), ultra-high performance on all three axes (the lowest
/// noise; the extra fraction of a milliampere does not matter on a Pi), 80 Hz, continuous
/// conversion, block data update. Reads of the output set the sub-address MSB (0x80), which the
/// datasheets require for auto-increment.
public class LIS3MDLFamily: STSensor {
    /// The registers both chips have, with the LIS3MDL datasheet's names and addresses. Each
    /// chip lists the registers it has beyond these in its own `ExtraRegister`.
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
        case intCfg = 0x30
        case intSrc = 0x31
        case intThsL = 0x32
        case intThsH = 0x33
    }

    /// CTRL_REG1 OM[6:5] = 11: ultra-high performance on X and Y.
    static let ultraHighPerformanceXY: UInt8 = 0b11 << 5
    /// CTRL_REG1 DO[4:2] = 111: 80 Hz (FAST_ODR[1] and ST[0] stay 0).
    static let outputRate80Hz: UInt8 = 0b111 << 2
    /// CTRL_REG2 FS[6:5] = 00: ±4 gauss.
    static let fullScale4Gauss: UInt8 = 0b00 << 5
    /// CTRL_REG3 MD[1:0] = 00: continuous conversion (reset leaves 11, power-down); I2C stays
    /// enabled and LP off.
    static let continuousConversion: UInt8 = 0b00
    /// CTRL_REG4 OMZ[3:2] = 11: ultra-high performance on Z too. BLE[1] = 0: little-endian.
    static let ultraHighPerformanceZ: UInt8 = 0b11 << 2
    /// CTRL_REG5 BDU[6]: a sample's bytes are not overwritten until all of them have been read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// STATUS_REG XDA/YDA/ZDA[2:0]: new data on an axis (the kernel's data-ready mask; ZYXDA in
    /// bit 3 is not relied on, sensors.md §8 item 11).
    static let newDataMask: UInt8 = 0b0000_0111

    /// The writes that start either chip, in order: scale and operating modes first, continuous
    /// conversion last, so the first sample is taken with the final settings. CTRL_REG2 ← 0x00,
    /// CTRL_REG1 ← 0x7C | `temperatureCompensation`, CTRL_REG4 ← 0x0C, CTRL_REG5 ← 0x40,
    /// CTRL_REG3 ← 0x00.
    /// - Parameter temperatureCompensation: CTRL_REG1 bit 7 on a chip where it means TEMP_COMP
    ///   (the LSM9DS1); 0 on the LIS3MDL, where it would turn the temperature sensor on.
    static func familyInitSequence(temperatureCompensation: UInt8 = 0) -> [(register: Register, value: UInt8)] {
        [
            (.ctrlReg2, fullScale4Gauss),
            (.ctrlReg1, temperatureCompensation | ultraHighPerformanceXY | outputRate80Hz),
            (.ctrlReg4, ultraHighPerformanceZ),
            (.ctrlReg5, blockDataUpdate),
            (.ctrlReg3, continuousConversion),
        ]
    }

    private let microteslaPerLSB: Double

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameters:
    ///   - device: the chip.
    ///   - identity: what WHO_AM_I reads.
    ///   - microteslaPerLSB: the field per count at the configured ±4 gauss.
    ///   - initSequence: the writes `configure()` makes, in order.
    init(
        device: any I2CDevice, identity: UInt8, microteslaPerLSB: Double,
        initSequence: [(register: Register, value: UInt8)]
    ) {
        self.microteslaPerLSB = microteslaPerLSB
        super.init(device: device, identityRegister: Register.whoAmI, identity: identity, initSequence: initSequence)
    }

    /// The latest field in µT, chip axes; nil when STATUS_REG announces no new sample.
    /// - Throws: `I2CError`.
    public func readMagneticField() throws(I2CError) -> Vector3? {
        try readNewBlock(
            status: Register.statusReg.rawValue, readyMask: Self.newDataMask,
            output: Register.outXL.rawValue | Self.multiReadBit
        ).map { Self.decodeField($0, microteslaPerLSB: microteslaPerLSB) }
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
    public static func decodeField(_ bytes: RegisterBlock, microteslaPerLSB: Double) -> Vector3 {
        STSensor.vector(STSensor.littleEndianAxes(bytes), scale: microteslaPerLSB)
    }
}
