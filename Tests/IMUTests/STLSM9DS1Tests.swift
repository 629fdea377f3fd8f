import Heading
import Simulation
import Testing

@testable import IMU

/// What only the LSM9DS1 has; the checks it shares with the other ST chips are in
/// `STMagnetometerTests` and `STAccelerometerTests`.
@Suite("LSM9DS1 on its register emulators", .timeLimit(.minutes(5)))
struct STLSM9DS1Tests {
    @Test("the accelerometer/gyroscope status register is mirrored at 0x27, beside the accelerometer output")
    func statusMirror() throws {
        let bus = SimulatedI2CBus()
        let emulator = LSM9DS1AccelerometerGyroscopeEmulator()
        bus.attach(emulator)
        let driver = LSM9DS1AccelerometerGyroscope(device: try bus.device(at: 0x6A))
        try driver.configure()
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(emulator.read(register: 0x27, count: 1) == emulator.read(register: 0x17, count: 1))
        #expect(emulator.read(register: 0x17, count: 1) == [0x01])
    }
}
