import Heading
import Simulation
import Testing

@testable import IMU

/// What only the LSM303DLHC has; the checks it shares with the other ST chips are in
/// `STMagnetometerTests` and `STAccelerometerTests`.
@Suite("LSM303DLHC on its register emulators", .timeLimit(.minutes(5)))
struct STLSM303DLHCTests {
    @Test("magnetometer decoding is big-endian in the order X, Z, Y")
    func magnetometerDecodeLayout() {
        let field = LSM303DLHCMagnetometer.decodeField(
            [0x80, 0x00, 0x00, 0x01, 0x7F, 0xFF], microteslaPerLSBXY: 1, microteslaPerLSBZ: 2)
        #expect(field == Vector3(-32768, 32767, 2))
    }

    @Test("0x0F reads the undocumented 0x3C and IRA/IRB/IRC read \"H43\" like an HMC5883L")
    func magnetometerIdentity() throws {
        let bus = SimulatedI2CBus()
        let emulator = LSM303DLHCMagnetometerEmulator()
        bus.attach(emulator)
        #expect(try LSM303DLHCMagnetometer(device: bus.device(at: 0x1E)).hasExpectedIdentity())
        #expect(emulator.read(register: 0x0A, count: 3) == RegisterBlock("H43".utf8))
    }
}
