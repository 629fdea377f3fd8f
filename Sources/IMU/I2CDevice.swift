#if canImport(Glibc)
import Glibc
#endif
import Heading

/// One device on an I2C bus, as the chip drivers need it: register reads and writes.
///
/// Chips that want the ST "multi-read" bit (0x80) for auto-increment get it from their driver;
/// the device passes register numbers through unchanged.
public protocol I2CDevice: AnyObject {
    /// The bus number (`/dev/i2c-N`).
    var bus: Int { get }
    /// The 7-bit address.
    var address: UInt8 { get }
    /// Reads `count` (1…32) consecutive bytes starting at `register`, as one SMBus block read;
    /// the block holds them inline (no allocation per read).
    /// - Throws: `I2CError`.
    func readRegisters(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock
    /// Writes one register.
    /// - Throws: `I2CError`.
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError)
}

extension I2CDevice {
    /// Reads one register.
    /// - Throws: `I2CError`; EIO when the device returned no byte.
    public func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        try readExactly(register, count: 1)[0]
    }

    /// Reads `count` consecutive bytes and checks that all of them arrived: drivers index the
    /// bytes blindly after this, and a short SMBus block read is a bus fault, not a sample.
    /// - Throws: `I2CError`; EIO when fewer bytes came back.
    public func readExactly(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        let bytes = try readRegisters(register, count: count)
        guard bytes.count == count else {
            throw I2CError(
                bus: bus, address: address, register: register, operation: "read \(count) bytes (got \(bytes.count))",
                errno: EIO)
        }
        return bytes
    }
}

/// An I2C bus: hands out devices by address.
public protocol I2CBus: AnyObject {
    /// The bus number.
    var number: Int { get }
    /// The device at `address` (nothing is transferred until a read or write).
    /// - Throws: `I2CError` when the bus cannot be used at all.
    func device(at address: UInt8) throws(I2CError) -> any I2CDevice
}

/// A magnetometer chip driver. Readings are in the chip's own axes; board presets map them to
/// the body frame.
public protocol MagnetometerDriver: AnyObject {
    /// The chip's name as people write it, e.g. `LIS3MDL`.
    static var chipName: String { get }
    /// A driver for the chip at `device`; nothing is written until `configure()`.
    init(device: any I2CDevice)
    /// Puts the chip into continuous sampling at 50–100 Hz.
    func configure() throws(I2CError)
    /// The latest field, microtesla, chip axes; nil when the chip has no new sample.
    func readMagneticField() throws(I2CError) -> Vector3?
}

/// An accelerometer (and possibly gyroscope) chip driver, chip axes.
public protocol AccelerometerDriver: AnyObject {
    /// The chip's name, e.g. `LSM6DSL`.
    static var chipName: String { get }
    /// Whether the chip has a gyroscope.
    static var hasGyroscope: Bool { get }
    /// A driver for the chip at `device`; nothing is written until `configure()`.
    init(device: any I2CDevice)
    /// Puts the chip into continuous sampling at 50–100 Hz.
    func configure() throws(I2CError)
    /// The latest specific force, g, chip axes (flat and face up the chip reads +1 g on its z);
    /// nil when the chip has no new sample.
    func readAcceleration() throws(I2CError) -> Vector3?
    /// The latest angular rate, °/s, chip axes; nil without a gyroscope or without new data.
    func readAngularRate() throws(I2CError) -> Vector3?
}

extension AccelerometerDriver {
    public static var hasGyroscope: Bool { false }
    public func readAngularRate() throws(I2CError) -> Vector3? { nil }
}
