import Heading
import Simulation
import Testing

@testable import IMU

/// What only the LSM303D has: one die, and one driver, in both roles. The checks each role
/// shares with the other ST chips are in `STMagnetometerTests` and `STAccelerometerTests`.
@Suite("LSM303D on its register emulator", .timeLimit(.minutes(5)))
struct STLSM303DTests {
    static let address: UInt8 = 0x1D

    let bus = SimulatedI2CBus()
    let emulator = LSM303DEmulator()
    let driver: LSM303D

    init() throws {
        bus.attach(emulator)
        driver = LSM303D(device: try bus.device(at: Self.address))
    }

    @Test("one class serves both roles; configure sets up both halves")
    func bothRoles() throws {
        let magnetometer: any MagnetometerDriver = driver
        let accelerometer: any AccelerometerDriver = driver
        #expect(type(of: magnetometer).chipName == "LSM303D" && !type(of: accelerometer).hasGyroscope)
        try magnetometer.configure()
        try accelerometer.configure()
        emulator.setField(Vector3(20, 0, -40))
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readAcceleration() != nil)
    }

    @Test("each half announces only its own samples")
    func separateDataReady() throws {
        try driver.configure()
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readAcceleration() == nil, "a new field does not announce a force")
        #expect(try driver.readMagneticField() != nil)
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readMagneticField() == nil, "a new force does not announce a field")
        #expect(try driver.readAcceleration() != nil)
    }
}
