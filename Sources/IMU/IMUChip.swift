import Heading

/// A chip waypointd has a driver for: one case per die and role, named as the config and
/// `waypointd check` write it (`rawValue`, e.g. `lsm9ds1-m`).
///
/// Each chip carries the axis map that takes its raw axes into the body frame when it lies flat,
/// components up, with the x axis of its accelerometer (for a magnetometer: of the accelerometer
/// it comes with) pointing forward. Facts and sources: `reference/sensors.md` §3 and §4.1.
public enum IMUChip: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The LSM9DS1's magnetometer die (Sense HAT, BerryIMU v2, BerryGPS-IMU v3).
    case lsm9ds1Magnetometer = "lsm9ds1-m"
    /// The LSM9DS1's accelerometer and gyroscope die.
    case lsm9ds1AccelerometerGyroscope = "lsm9ds1-ag"
    /// ST LIS3MDL magnetometer.
    case lis3mdl = "lis3mdl"
    /// The LSM303AGR's magnetometer die.
    case lsm303agrMagnetometer = "lsm303agr-m"
    /// The LSM303AGR's accelerometer die.
    case lsm303agrAccelerometer = "lsm303agr-a"
    /// The LSM303DLHC's magnetometer die.
    case lsm303dlhcMagnetometer = "lsm303dlhc-m"
    /// The LSM303DLHC's accelerometer die.
    case lsm303dlhcAccelerometer = "lsm303dlhc-a"
    /// ST LSM303D: magnetometer and accelerometer in one die.
    case lsm303d = "lsm303d"
    /// Honeywell HMC5883L magnetometer.
    case hmc5883l = "hmc5883l"
    /// QST QMC5883L magnetometer.
    case qmc5883l = "qmc5883l"
    /// The AK09916 magnetometer inside an ICM-20948.
    case ak09916 = "ak09916"
    /// TDK ICM-20948 accelerometer and gyroscope.
    case icm20948 = "icm20948"
    /// ST LSM6DS33 accelerometer and gyroscope.
    case lsm6ds33 = "lsm6ds33"
    /// ST LSM6DSL accelerometer and gyroscope.
    case lsm6dsl = "lsm6dsl"
    /// ST LSM6DSOX accelerometer and gyroscope.
    case lsm6dsox = "lsm6dsox"

    /// The name people write, with the die where a package has two: `LSM9DS1 magnetometer`.
    public var name: String {
        switch self {
        case .lsm9ds1Magnetometer: return "LSM9DS1 magnetometer"
        case .lsm9ds1AccelerometerGyroscope: return "LSM9DS1 accelerometer/gyroscope"
        case .lis3mdl: return LIS3MDL.chipName
        case .lsm303agrMagnetometer: return "LSM303AGR magnetometer"
        case .lsm303agrAccelerometer: return "LSM303AGR accelerometer"
        case .lsm303dlhcMagnetometer: return "LSM303DLHC magnetometer"
        case .lsm303dlhcAccelerometer: return "LSM303DLHC accelerometer"
        case .lsm303d: return LSM303D.chipName
        case .hmc5883l: return HMC5883L.chipName
        case .qmc5883l: return QMC5883L.chipName
        case .ak09916: return AK09916.chipName
        case .icm20948: return ICM20948.chipName
        case .lsm6ds33: return LSM6DS33.chipName
        case .lsm6dsl: return LSM6DSL.chipName
        case .lsm6dsox: return LSM6DSOX.chipName
        }
    }

    public var description: String { name }

    /// Whether the chip measures the magnetic field.
    public var isMagnetometer: Bool {
        switch self {
        case .lsm9ds1Magnetometer, .lis3mdl, .lsm303agrMagnetometer, .lsm303dlhcMagnetometer, .lsm303d, .hmc5883l,
            .qmc5883l, .ak09916:
            return true
        case .lsm9ds1AccelerometerGyroscope, .lsm303agrAccelerometer, .lsm303dlhcAccelerometer, .icm20948, .lsm6ds33,
            .lsm6dsl, .lsm6dsox:
            return false
        }
    }

    /// Whether the chip measures specific force.
    public var isAccelerometer: Bool {
        switch self {
        case .lsm9ds1AccelerometerGyroscope, .lsm303agrAccelerometer, .lsm303dlhcAccelerometer, .lsm303d, .icm20948,
            .lsm6ds33, .lsm6dsl, .lsm6dsox:
            return true
        case .lsm9ds1Magnetometer, .lis3mdl, .lsm303agrMagnetometer, .lsm303dlhcMagnetometer, .hmc5883l, .qmc5883l,
            .ak09916:
            return false
        }
    }

    /// Whether the chip also has a gyroscope.
    public var hasGyroscope: Bool {
        switch self {
        case .lsm9ds1AccelerometerGyroscope, .icm20948, .lsm6ds33, .lsm6dsl, .lsm6dsox: return true
        default: return false
        }
    }

    /// The addresses the chip can answer at that its driver supports, default first.
    public var addresses: [UInt8] {
        switch self {
        case .lsm9ds1Magnetometer:
            return [
                LSM9DS1Magnetometer.defaultAddress, LSM9DS1Magnetometer.alternateAddress, Self.lsm9ds1MagnetometerSA1,
            ]
        case .lsm9ds1AccelerometerGyroscope:
            return [LSM9DS1AccelerometerGyroscope.defaultAddress, LSM9DS1AccelerometerGyroscope.alternateAddress]
        case .lis3mdl: return [LIS3MDL.defaultAddress, LIS3MDL.alternateAddress]
        case .lsm303agrMagnetometer: return [LSM303AGRMagnetometer.defaultAddress]
        case .lsm303agrAccelerometer: return [LSM303AGRAccelerometer.defaultAddress]
        case .lsm303dlhcMagnetometer: return [LSM303DLHCMagnetometer.defaultAddress]
        case .lsm303dlhcAccelerometer: return [LSM303DLHCAccelerometer.defaultAddress]
        case .lsm303d: return [LSM303D.defaultAddress, LSM303D.alternateAddress]
        case .hmc5883l: return [HMC5883L.defaultAddress]
        case .qmc5883l: return [QMC5883L.defaultAddress]
        case .ak09916: return [AK09916.defaultAddress]
        case .icm20948: return [ICM20948.defaultAddress, ICM20948.alternateAddress]
        case .lsm6ds33: return [LSM6DS33.defaultAddress, LSM6DS33.alternateAddress]
        case .lsm6dsl: return [LSM6DSL.defaultAddress, LSM6DSL.alternateAddress]
        case .lsm6dsox: return [LSM6DSOX.defaultAddress, LSM6DSOX.alternateAddress]
        }
    }

    /// The LSM9DS1 magnetometer's third address (SDO_M wired to 0x1D); RTIMULib probes it
    /// (sensors.md §3.7). Its register map does not depend on the address.
    static let lsm9ds1MagnetometerSA1: UInt8 = 0x1D

    /// The other die in the same package: the magnetometer for an accelerometer and the other
    /// way round; the LSM303D is its own partner. Nil for single-sensor chips.
    public var packagePartner: IMUChip? {
        switch self {
        case .lsm9ds1Magnetometer: return .lsm9ds1AccelerometerGyroscope
        case .lsm9ds1AccelerometerGyroscope: return .lsm9ds1Magnetometer
        case .lsm303agrMagnetometer: return .lsm303agrAccelerometer
        case .lsm303agrAccelerometer: return .lsm303agrMagnetometer
        case .lsm303dlhcMagnetometer: return .lsm303dlhcAccelerometer
        case .lsm303dlhcAccelerometer: return .lsm303dlhcMagnetometer
        case .lsm303d: return .lsm303d
        case .ak09916: return .icm20948
        case .icm20948: return .ak09916
        case .lis3mdl, .hmc5883l, .qmc5883l, .lsm6ds33, .lsm6dsl, .lsm6dsox: return nil
        }
    }

    /// Chip axes to body axes for the chip flat, components up, with the x axis of its
    /// accelerometer (for a magnetometer, of the accelerometer that comes with it) forward.
    ///
    /// Every accelerometer here reads +1 g on its own z when flat and face up (ST parts and the
    /// ICM-20948, sensors.md §4.1), and its frame is right-handed. Body z points down and the
    /// specific force at rest is (0, 0, −1), so chip z is −body z, and with chip x forward chip y
    /// is −body y: `x,-y,-z`, a rotation of 180° about x. Gyroscopes share their accelerometer's
    /// die and map. The magnetometers follow from how their axes sit against that accelerometer.
    public var defaultAxisMap: AxisMap {
        switch self {
        case .lsm9ds1AccelerometerGyroscope, .lsm303agrAccelerometer, .lsm303dlhcAccelerometer, .icm20948, .lsm6ds33,
            .lsm6dsl, .lsm6dsox:
            return Self.faceUp
        case .lsm9ds1Magnetometer:
            // The magnetometer's x points opposite the accelerometer's x, y and z agree
            // (sensors.md §3.7: PX4-160; jremington's LSM9DS1 tilt compass negates accel x to
            // match the magnetometer). chip = (−ax, ay, az), so body = (−mx, −my, −mz).
            return AxisMap(constant: "-x,-y,-z")
        case .lsm303agrMagnetometer:
            // UNCONFIRMED (sensors.md §3.1, open item 7): PX4 PR 10068 flips the magnetometer's z
            // against the package's other axes after reading the datasheet's axis figure; CODAL
            // remaps both dies alike. PX4's explicit flip is followed: chip = (ax, ay, −az), so
            // body = (mx, −my, mz). Verify on hardware: flat and still, body z of the field must
            // have the sign of the local WMM vertical component (positive in the northern
            // hemisphere).
            return AxisMap(constant: "x,-y,z")
        case .lsm303dlhcMagnetometer:
            // Pololu's LSM303 heading routine uses raw DLHC magnetometer and accelerometer
            // vectors together with no remap (sensors.md §3.3, POL-303, 1 source): same axes.
            return Self.faceUp
        case .lsm303d:
            // One die for both sensors; Pololu's and Pimoroni's heading code combine the raw
            // vectors directly (POL-303, PIM-ENV).
            return Self.faceUp
        case .ak09916:
            // mag x = accel x, mag y = −accel y, mag z = −accel z (sensors.md §3.8: SF-59, MPF-10,
            // DPE-3), so the AK09916's raw axes already are the body axes.
            return .identity
        case .lis3mdl:
            // A separate chip, so its axes against the accelerometer depend on the board. On the
            // BerryIMU v3 / BerryGPS-IMU v4 OzzMaker's tilt compensation combines the raw LIS3MDL
            // and LSM6DSL vectors in the same frame (berryIMU.py, OZZ-MAIN): taken as aligned.
            return Self.faceUp
        case .hmc5883l, .qmc5883l:
            // UNCONFIRMED: modules carrying these put no accelerometer beside them; assumed
            // right-handed with z out of the top like the ST parts. Use `axis-remap` when the
            // heading turns the wrong way or tilting moves it.
            return Self.faceUp
        }
    }

    /// An ST-style right-handed chip frame, flat and face up with its x forward.
    private static let faceUp = AxisMap(constant: "x,-y,-z")

    /// A driver for this chip's magnetometer at `device`, or nil when the chip has none.
    /// - Parameters:
    ///   - device: the chip's device on the bus.
    ///   - pause: blocks for a duration during configuration (ThreadSleep in production).
    public func makeMagnetometer(
        device: any I2CDevice, pause: @escaping (Duration) -> Void
    ) -> (any MagnetometerDriver)? {
        switch self {
        case .lsm9ds1Magnetometer: return LSM9DS1Magnetometer(device: device)
        case .lis3mdl: return LIS3MDL(device: device)
        case .lsm303agrMagnetometer: return LSM303AGRMagnetometer(device: device)
        case .lsm303dlhcMagnetometer: return LSM303DLHCMagnetometer(device: device)
        case .lsm303d: return LSM303D(device: device)
        case .hmc5883l: return HMC5883L(device: device)
        case .qmc5883l: return QMC5883L(device: device, pause: pause)
        case .ak09916: return AK09916(device: device, pause: pause)
        case .lsm9ds1AccelerometerGyroscope, .lsm303agrAccelerometer, .lsm303dlhcAccelerometer, .icm20948, .lsm6ds33,
            .lsm6dsl, .lsm6dsox:
            return nil
        }
    }

    /// A driver for this chip's accelerometer (and gyroscope) at `device`, or nil when the chip
    /// has none.
    /// - Parameters:
    ///   - device: the chip's device on the bus.
    ///   - pause: blocks for a duration during configuration (ThreadSleep in production).
    public func makeAccelerometer(
        device: any I2CDevice, pause: @escaping (Duration) -> Void
    ) -> (any AccelerometerDriver)? {
        switch self {
        case .lsm9ds1AccelerometerGyroscope: return LSM9DS1AccelerometerGyroscope(device: device)
        case .lsm303agrAccelerometer: return LSM303AGRAccelerometer(device: device)
        case .lsm303dlhcAccelerometer: return LSM303DLHCAccelerometer(device: device)
        case .lsm303d: return LSM303D(device: device)
        case .icm20948: return ICM20948(device: device, pause: pause)
        case .lsm6ds33: return LSM6DS33(device: device)
        case .lsm6dsl: return LSM6DSL(device: device)
        case .lsm6dsox: return LSM6DSOX(device: device)
        case .lsm9ds1Magnetometer, .lis3mdl, .lsm303agrMagnetometer, .lsm303dlhcMagnetometer, .hmc5883l, .qmc5883l,
            .ak09916:
            return nil
        }
    }
}
