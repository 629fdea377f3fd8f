import Heading
import Simulation
import Testing

@testable import IMU

/// One ST sensor die in one role, as the shared tests in `STSensorTests` drive it: the facts
/// of the chip they pin, and how to put its emulator and driver on a bus. The table of every
/// case is below.
struct STSensorCase: Sendable, CustomTestStringConvertible {
    /// The emulator and the driver, by role.
    enum Parts: Sendable {
        case magnetometer(
            emulator: @Sendable () -> any MagnetometerEmulator,
            driver: @Sendable (any I2CDevice) -> any STSensor & MagnetometerDriver)
        case accelerometer(
            emulator: @Sendable () -> any AccelerometerEmulator,
            driver: @Sendable (any I2CDevice) -> any STSensor & AccelerometerDriver)
    }

    let name: String
    let address: UInt8
    let parts: Parts
    /// The writes `configure()` must make, in order.
    let initWrites: [RegisterWrite]
    /// One count per axis at the configured range: µT, or g.
    let lsb: Vector3
    /// The configured full scale: µT, or g.
    let fullScale: Double
    /// The status register the driver polls.
    let status: UInt8
    /// The first output register as the driver sends it (0x80 set where the part needs it for
    /// auto-increment).
    let output: UInt8
    /// Spans, as read from the emulator, that stay zero until the chip is configured: its
    /// status and output registers.
    let quiet: [(register: UInt8, count: Int)]
    let identityRegister: UInt8
    let identity: UInt8
    let burst: BurstBehaviour
    var hasGyroscope = false
    /// Another chip's emulator that answers the same identity at the same address.
    var identityTwin: (@Sendable () -> any RegisterEmulator)? = nil

    var testDescription: String { name }

    /// An ordinary sample: a field of 20, 0, −40 µT, or the chip flat and face up.
    var ordinarySample: Vector3 {
        switch parts {
        case .magnetometer: Vector3(20, 0, -40)
        case .accelerometer: Vector3(0, 0, 1)
        }
    }

    /// A sample whose output block has six distinct bytes on every chip, so that a burst which
    /// repeats one register shows.
    var distinctSample: Vector3 {
        switch parts {
        case .magnetometer: Vector3(12.3, -45.6, 78.9)
        case .accelerometer: Vector3(0.123, -0.456, 0.789)
        }
    }

    /// A driver for whatever answers at `device`.
    func makeDriver(_ device: any I2CDevice) -> STSensor {
        switch parts {
        case .magnetometer(_, let driver): driver(device)
        case .accelerometer(_, let driver): driver(device)
        }
    }

    /// The chip's emulator attached to a new bus, and its driver.
    func rig() throws -> STRig {
        let bus = SimulatedI2CBus()
        switch parts {
        case .magnetometer(let makeEmulator, let makeDriver):
            let emulator = makeEmulator()
            bus.attach(emulator)
            let driver = makeDriver(try bus.device(at: address))
            return STRig(
                bus: bus, emulator: emulator, driver: driver, hasGyroscope: false, setSample: emulator.setField,
                readSample: { () throws(I2CError) in try driver.readMagneticField() }, setRate: nil, readRate: nil)
        case .accelerometer(let makeEmulator, let makeDriver):
            let emulator = makeEmulator()
            bus.attach(emulator)
            let driver = makeDriver(try bus.device(at: address))
            return STRig(
                bus: bus, emulator: emulator, driver: driver, hasGyroscope: type(of: driver).hasGyroscope,
                setSample: emulator.setAcceleration,
                readSample: { () throws(I2CError) in try driver.readAcceleration() },
                setRate: emulator.setAngularRate, readRate: { () throws(I2CError) in try driver.readAngularRate() })
        }
    }
}

/// A chip's emulator on a bus, its driver, and the role's way of giving the one a sample and
/// reading it back from the other.
struct STRig {
    let bus: SimulatedI2CBus
    let emulator: any RegisterEmulator
    let driver: STSensor
    /// What the driver's type says.
    let hasGyroscope: Bool
    /// Gives the emulator a true sample: the field in µT, or the specific force in g.
    let setSample: (Vector3) -> Void
    /// The driver's decoded sample; nil when there is none.
    let readSample: () throws(I2CError) -> Vector3?
    /// The same for the angular rate, in °/s, on accelerometers.
    let setRate: ((Vector3) -> Void)?
    let readRate: (() throws(I2CError) -> Vector3?)?
}

extension STSensorCase {
    /// Every ST driver in every role, each on its emulator at its default address.
    static let all: [STSensorCase] = [
        lis3mdl, lsm9ds1Magnetometer, lsm303agrMagnetometer, lsm303dlhcMagnetometer, lsm303dMagnetometer,
        lsm303agrAccelerometer, lsm303dlhcAccelerometer, lsm303dAccelerometer, lsm6ds33, lsm6dsl, lsm6dsox,
        lsm9ds1AccelerometerGyroscope,
    ]
    /// The accelerometers.
    static let accelerometers = all.filter {
        if case .accelerometer = $0.parts { true } else { false }
    }
    /// The accelerometers with a gyroscope.
    static let gyroscopes = all.filter(\.hasGyroscope)

    /// A LIS3MDL-class magnetometer at 0x1C, ±4 gauss: STATUS_REG 0x27, output from 0x28 read
    /// with the 0x80 bit, WHO_AM_I 0x3D.
    private static func lis3mdlClass(
        _ name: String, emulator: @escaping @Sendable () -> any MagnetometerEmulator,
        driver: @escaping @Sendable (any I2CDevice) -> any STSensor & MagnetometerDriver,
        initWrites: [RegisterWrite], microteslaPerLSB: Double,
        identityTwin: @escaping @Sendable () -> any RegisterEmulator
    ) -> STSensorCase {
        STSensorCase(
            name: name, address: 0x1C, parts: .magnetometer(emulator: emulator, driver: driver), initWrites: initWrites,
            lsb: Vector3(microteslaPerLSB, microteslaPerLSB, microteslaPerLSB), fullScale: 400, status: 0x27,
            output: 0xA8, quiet: [(0xA7, 7)], identityRegister: 0x0F, identity: 0x3D, burst: .multiReadBit,
            identityTwin: identityTwin)
    }

    /// An LSM303 (LIS3DH-class) accelerometer at 0x19, ±4 g: the same start-up on both,
    /// STATUS_REG_A 0x27, output from 0x28 read with the 0x80 bit, WHO_AM_I_A 0x33.
    private static func lsm303Accelerometer(
        _ name: String, emulator: @escaping @Sendable () -> any AccelerometerEmulator,
        driver: @escaping @Sendable (any I2CDevice) -> any STSensor & AccelerometerDriver,
        gPerLSB: Double, identityTwin: @escaping @Sendable () -> any RegisterEmulator
    ) -> STSensorCase {
        STSensorCase(
            name: name, address: 0x19, parts: .accelerometer(emulator: emulator, driver: driver),
            initWrites: [
                RegisterWrite(0x23, 0x98),  // CTRL_REG4_A: BDU, FS ±4 g, HR
                RegisterWrite(0x20, 0x57),  // CTRL_REG1_A: ODR 100 Hz, X/Y/Z on
            ], lsb: Vector3(gPerLSB, gPerLSB, gPerLSB), fullScale: 4, status: 0x27,
            output: 0xA8, quiet: [(0xA7, 7)], identityRegister: 0x0F, identity: 0x33, burst: .multiReadBit,
            identityTwin: identityTwin)
    }

    /// An LSM6DS33, LSM6DSL or LSM6DSOX at 0x6A, ±4 g and ±500 °/s: STATUS_REG 0x1E, output from
    /// 0x28 without the 0x80 bit, auto-increment from CTRL3_C IF_INC.
    private static func lsm6ds(
        _ name: String, emulator: @escaping @Sendable () -> any AccelerometerEmulator,
        driver: @escaping @Sendable (any I2CDevice) -> any STSensor & AccelerometerDriver,
        initWrites: [RegisterWrite], identity: UInt8
    ) -> STSensorCase {
        STSensorCase(
            name: name, address: 0x6A, parts: .accelerometer(emulator: emulator, driver: driver),
            initWrites: initWrites, lsb: Vector3(0.122e-3, 0.122e-3, 0.122e-3), fullScale: 4, status: 0x1E,
            output: 0x28, quiet: [(0x1E, 16)], identityRegister: 0x0F, identity: identity,
            burst: .addressIncrement(control: 0x12), hasGyroscope: true)
    }

    static let lis3mdl = lis3mdlClass(
        "LIS3MDL", emulator: { LIS3MDLEmulator() }, driver: { LIS3MDL(device: $0) },
        initWrites: [
            RegisterWrite(0x21, 0x00),  // CTRL_REG2: FS ±4 gauss
            RegisterWrite(0x20, 0x7C),  // CTRL_REG1: OM UHP, DO 80 Hz
            RegisterWrite(0x23, 0x0C),  // CTRL_REG4: OMZ UHP, little-endian
            RegisterWrite(0x24, 0x40),  // CTRL_REG5: BDU
            RegisterWrite(0x22, 0x00),  // CTRL_REG3: continuous
        ],
        microteslaPerLSB: 100.0 / 6842, identityTwin: { LSM9DS1MagnetometerEmulator() })

    static let lsm9ds1Magnetometer = lis3mdlClass(
        "LSM9DS1 magnetometer", emulator: { LSM9DS1MagnetometerEmulator() },
        driver: { LSM9DS1Magnetometer(device: $0) },
        initWrites: [
            RegisterWrite(0x21, 0x00),  // CTRL_REG2_M: FS ±4 gauss
            RegisterWrite(0x20, 0xFC),  // CTRL_REG1_M: TEMP_COMP, OM UHP, DO 80 Hz
            RegisterWrite(0x23, 0x0C),  // CTRL_REG4_M: OMZ UHP, little-endian
            RegisterWrite(0x24, 0x40),  // CTRL_REG5_M: BDU
            RegisterWrite(0x22, 0x00),  // CTRL_REG3_M: continuous
        ],
        microteslaPerLSB: 0.014, identityTwin: { LIS3MDLEmulator() })

    /// The int16 range at 0.15 µT per count reaches ±4915 µT (the part's ±50 gauss).
    static let lsm303agrMagnetometer = STSensorCase(
        name: "LSM303AGR magnetometer", address: 0x1E,
        parts: .magnetometer(
            emulator: { LSM303AGRMagnetometerEmulator() }, driver: { LSM303AGRMagnetometer(device: $0) }),
        initWrites: [
            RegisterWrite(0x62, 0x10),  // CFG_REG_C_M: BDU
            RegisterWrite(0x60, 0x8C),  // CFG_REG_A_M: COMP_TEMP_EN, ODR 100 Hz, MD continuous
        ],
        lsb: Vector3(0.15, 0.15, 0.15), fullScale: 4900, status: 0x67, output: 0x68,
        quiet: [(0x67, 7)], identityRegister: 0x4F, identity: 0x40, burst: .nativeIgnoringMultiReadBit)

    /// ±1.3 gauss; Z has its own gain.
    static let lsm303dlhcMagnetometer = STSensorCase(
        name: "LSM303DLHC magnetometer", address: 0x1E,
        parts: .magnetometer(
            emulator: { LSM303DLHCMagnetometerEmulator() }, driver: { LSM303DLHCMagnetometer(device: $0) }),
        initWrites: [
            RegisterWrite(0x00, 0x18),  // CRA_REG_M: DO 75 Hz
            RegisterWrite(0x01, 0x20),  // CRB_REG_M: GN ±1.3 gauss
            RegisterWrite(0x02, 0x00),  // MR_REG_M: continuous
        ],
        lsb: Vector3(100.0 / 1100, 100.0 / 1100, 100.0 / 980), fullScale: 130, status: 0x09, output: 0x03,
        quiet: [(0x03, 7)], identityRegister: 0x0F, identity: 0x3C, burst: .native)

    /// One driver and one `configure()` for both halves of the die.
    static let lsm303dInitWrites = [
        RegisterWrite(0x21, 0x08),  // CTRL2: AFS ±4 g
        RegisterWrite(0x20, 0x5F),  // CTRL1: AODR 50 Hz, BDU, X/Y/Z on
        RegisterWrite(0x24, 0x70),  // CTRL5: M_RES high, M_ODR 50 Hz
        RegisterWrite(0x25, 0x20),  // CTRL6: MFS ±4 gauss
        RegisterWrite(0x26, 0x00),  // CTRL7: MD continuous
    ]

    static let lsm303dMagnetometer = STSensorCase(
        name: "LSM303D magnetometer", address: 0x1D,
        parts: .magnetometer(emulator: { LSM303DEmulator() }, driver: { LSM303D(device: $0) }),
        initWrites: lsm303dInitWrites, lsb: Vector3(0.016, 0.016, 0.016), fullScale: 400, status: 0x07,
        output: 0x88, quiet: [(0x87, 7)], identityRegister: 0x0F, identity: 0x49, burst: .multiReadBit)

    static let lsm303dAccelerometer = STSensorCase(
        name: "LSM303D accelerometer", address: 0x1D,
        parts: .accelerometer(emulator: { LSM303DEmulator() }, driver: { LSM303D(device: $0) }),
        initWrites: lsm303dInitWrites, lsb: Vector3(0.122e-3, 0.122e-3, 0.122e-3), fullScale: 4, status: 0x27,
        output: 0xA8, quiet: [(0xA7, 7)], identityRegister: 0x0F, identity: 0x49, burst: .multiReadBit)

    static let lsm303agrAccelerometer = lsm303Accelerometer(
        "LSM303AGR accelerometer", emulator: { LSM303AGRAccelerometerEmulator() },
        driver: { LSM303AGRAccelerometer(device: $0) }, gPerLSB: 1.95e-3,
        identityTwin: { LSM303DLHCAccelerometerEmulator() })

    static let lsm303dlhcAccelerometer = lsm303Accelerometer(
        "LSM303DLHC accelerometer", emulator: { LSM303DLHCAccelerometerEmulator() },
        driver: { LSM303DLHCAccelerometer(device: $0) }, gPerLSB: 2e-3,
        identityTwin: { LSM303AGRAccelerometerEmulator() })

    /// The LSM6DS33's and LSM6DSL's start-up: the family's, with nothing of their own.
    static let lsm6dsInitWrites = [
        RegisterWrite(0x12, 0x44),  // CTRL3_C: BDU, IF_INC
        RegisterWrite(0x10, 0x38),  // CTRL1_XL: 52 Hz, ±4 g
        RegisterWrite(0x11, 0x34),  // CTRL2_G: 52 Hz, ±500 °/s
    ]

    static let lsm6ds33 = lsm6ds(
        "LSM6DS33", emulator: { LSM6DS33Emulator() }, driver: { LSM6DS33(device: $0) },
        initWrites: lsm6dsInitWrites, identity: 0x69)

    static let lsm6dsl = lsm6ds(
        "LSM6DSL", emulator: { LSM6DSLEmulator() }, driver: { LSM6DSL(device: $0) },
        initWrites: lsm6dsInitWrites, identity: 0x6A)

    static let lsm6dsox = lsm6ds(
        "LSM6DSOX", emulator: { LSM6DSOXEmulator() }, driver: { LSM6DSOX(device: $0) },
        initWrites: [
            RegisterWrite(0x12, 0x44),  // CTRL3_C: BDU, IF_INC
            RegisterWrite(0x18, 0xE2),  // CTRL9_XL: DEN defaults, I3C_disable
            RegisterWrite(0x10, 0x38),  // CTRL1_XL: 52 Hz, ±4 g
            RegisterWrite(0x11, 0x34),  // CTRL2_G: 52 Hz, ±500 °/s
        ],
        identity: 0x6C)

    /// The LSM6DS family's logic on its own register map: STATUS_REG at 0x17 (again at 0x27),
    /// auto-increment from CTRL_REG8 IF_ADD_INC.
    static let lsm9ds1AccelerometerGyroscope = STSensorCase(
        name: "LSM9DS1 accelerometer/gyroscope", address: 0x6A,
        parts: .accelerometer(
            emulator: { LSM9DS1AccelerometerGyroscopeEmulator() },
            driver: { LSM9DS1AccelerometerGyroscope(device: $0) }),
        initWrites: [
            RegisterWrite(0x22, 0x44),  // CTRL_REG8: BDU, IF_ADD_INC
            RegisterWrite(0x1E, 0x38),  // CTRL_REG4: gyroscope X/Y/Z on
            RegisterWrite(0x1F, 0x38),  // CTRL_REG5_XL: accelerometer X/Y/Z on
            RegisterWrite(0x20, 0x50),  // CTRL_REG6_XL: 50 Hz alone, ±4 g
            RegisterWrite(0x10, 0x48),  // CTRL_REG1_G: 59.5 Hz, ±500 °/s, starts both
        ],
        lsb: Vector3(0.122e-3, 0.122e-3, 0.122e-3), fullScale: 4, status: 0x17, output: 0x28,
        quiet: [(0x17, 7), (0x27, 7)], identityRegister: 0x0F, identity: 0x68,
        burst: .addressIncrement(control: 0x22), hasGyroscope: true)
}
