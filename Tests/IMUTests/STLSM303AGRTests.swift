import Simulation
import Testing

@testable import IMU

/// What only the LSM303AGR has; the checks it shares with the other ST chips are in
/// `STMagnetometerTests` and `STAccelerometerTests`.
@Suite("LSM303AGR on its register emulators", .timeLimit(.minutes(5)))
struct STLSM303AGRTests {
    @Test("the magnetometer's WHO_AM_I_M is at 0x4F and reads 0x40; 0x0F reads nothing")
    func magnetometerIdentityRegister() {
        let emulator = LSM303AGRMagnetometerEmulator()
        #expect(emulator.read(register: 0x4F, count: 1) == [LSM303AGRMagnetometer.expectedIdentity])
        #expect(emulator.read(register: 0x0F, count: 1) == [0x00])
    }
}
