/// ST LIS3MDL three-axis magnetometer (BerryIMU v3, BerryGPS-IMU v3/v4, Adafruit 4485, Pololu
/// AltIMU-10 v5).
///
/// Facts: `reference/sensors.md` §3.5. A member of `LIS3MDLFamily`, which holds the shared
/// register map, configuration (±4 gauss, ultra-high performance, 80 Hz, continuous, block data
/// update), reading and decoding; this file holds what is the LIS3MDL's own.
///
/// WHO_AM_I (0x3D) is the same as the LSM9DS1 magnetometer's; detection tells them apart by
/// looking for the LSM9DS1 accelerometer/gyroscope (0x68 at 0x6A/0x6B).
public final class LIS3MDL: LIS3MDLFamily, MagnetometerDriver {
    /// The registers the LIS3MDL has beyond the family's `Register` map, with the datasheet's
    /// names and addresses; the driver uses none of them.
    public enum ExtraRegister: UInt8, Sendable, CaseIterable {
        case tempOutL = 0x2E
        case tempOutH = 0x2F
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

    /// The writes `configure()` makes: the family's, with CTRL_REG1 TEMP_EN[7] left 0 (CTRL_REG2
    /// ← 0x00, CTRL_REG1 ← 0x7C, CTRL_REG4 ← 0x0C, CTRL_REG5 ← 0x40, CTRL_REG3 ← 0x00).
    static let initSequence: [(register: Register, value: UInt8)] = familyInitSequence()

    /// A driver for the chip at `device`; nothing is written until `configure()`.
    /// - Parameter device: the chip (0x1C or 0x1E).
    public init(device: any I2CDevice) {
        super.init(
            device: device, identity: Self.expectedIdentity, microteslaPerLSB: Self.microteslaPerLSB,
            initSequence: Self.initSequence)
    }
}
