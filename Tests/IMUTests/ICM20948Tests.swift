@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

private func isWithin(_ measured: Vector3?, _ truth: Vector3, _ tolerance: Double) -> Bool {
    guard let measured else { return false }
    return abs(measured.x - truth.x) <= tolerance && abs(measured.y - truth.y) <= tolerance
        && abs(measured.z - truth.z) <= tolerance
}

/// An ICM-20948 on a simulated bus with its driver; pauses are recorded, not slept.
private final class Rig {
    let bus = SimulatedI2CBus(number: 1)
    let chip = ICM20948Emulator()
    var pauses: [Duration] = []
    private(set) var driver: ICM20948!

    init() throws {
        chip.attach(to: bus)
        driver = ICM20948(device: try bus.device(at: 0x68), pause: { [unowned self] in self.pauses.append($0) })
    }
}

@Suite("ICM-20948: bank-switched accelerometer and gyroscope, with bypass for the AK09916", .timeLimit(.minutes(5)))
struct ICM20948Tests {
    @Test("configure: reset, wake, rates and ranges in bank 2, bypass and data-ready in bank 0")
    func initSequence() throws {
        let rig = try Rig()
        try rig.driver.configure()
        #expect(rig.bus.transcript.map(\.description) == [
            "write 0x68 0x7F <- 0x0",  // bank 0, wherever the chip was left
            "write 0x68 0x6 <- 0x80",  // PWR_MGMT_1: DEVICE_RESET
            "read 0x68 0x6: 0x41",  // reset done: asleep, CLKSEL 1
            "write 0x68 0x6 <- 0x1",  // wake, auto clock
            "write 0x68 0x7 <- 0x0",  // PWR_MGMT_2: all axes on
            "write 0x68 0x7F <- 0x20",  // bank 2
            "write 0x68 0x0 <- 0xA",  // GYRO_SMPLRT_DIV 10: 100 Hz
            "write 0x68 0x1 <- 0x1B",  // GYRO_CONFIG_1: DLPF 3, ±500 °/s, FCHOICE
            "write 0x68 0x10 <- 0x0",  // ACCEL_SMPLRT_DIV_1
            "write 0x68 0x11 <- 0xA",  // ACCEL_SMPLRT_DIV_2 10: 102.3 Hz
            "write 0x68 0x14 <- 0x1B",  // ACCEL_CONFIG: DLPF 3, ±4 g, FCHOICE
            "write 0x68 0x7F <- 0x0",  // bank 0
            "write 0x68 0x3 <- 0x0",  // USER_CTRL: I2C master off
            "write 0x68 0xF <- 0x2",  // INT_PIN_CFG: BYPASS_EN
            "write 0x68 0x11 <- 0x1",  // INT_ENABLE_1: RAW_DATA_0_RDY_EN
        ])
        #expect(rig.pauses == [ICM20948.resetWait])
        #expect(rig.chip.isAwake && rig.chip.isBypassEnabled)
    }

    @Test("identity: WHO_AM_I 0xEA, read after returning a chip left in bank 2 to bank 0")
    func identity() throws {
        let rig = try Rig()
        #expect(try rig.driver.hasExpectedIdentity())
        rig.chip.write(register: 0x7F, value: 0x20)
        rig.bus.clearTranscript()
        #expect(try rig.driver.hasExpectedIdentity())
        #expect(rig.bus.transcript.map(\.description) == [
            "read 0x68 0x7F: 0x20", "write 0x68 0x7F <- 0x0", "read 0x68 0x0: 0xEA",
        ])
    }

    @Test("a reset that never finishes is a timeout on PWR_MGMT_1, after a bounded number of waits")
    func resetTimeout() throws {
        final class StuckInReset: RegisterEmulator {
            let address: UInt8 = 0x68
            func read(register: UInt8, count: Int) -> RegisterBlock { RegisterBlock(repeating: 0x80, count: count) }
            func write(register: UInt8, value: UInt8) {}
        }
        let bus = SimulatedI2CBus()
        bus.attach(StuckInReset())
        var pauses = 0
        let driver = ICM20948(device: try bus.device(at: 0x68), pause: { _ in pauses += 1 })
        let error = #expect(throws: I2CError.self) { try driver.configure() }
        #expect(error?.errno.rawValue == ETIMEDOUT)
        #expect(error?.register == 0x06)
        #expect(pauses == ICM20948.resetPolls)
    }

    @Test("decoding: big-endian words at the configured scale")
    func decode() {
        let bytes: RegisterBlock = [0x20, 0x00, 0xE0, 0x00, 0x7F, 0xFF]
        #expect(ICM20948.decodeAcceleration(bytes, gPerLSB: 1.0 / 8192) == Vector3(1, -1, 32767.0 / 8192))
        #expect(ICM20948.decodeAngularRate([0xFF, 0xBE, 0, 65, 0x80, 0], degreesPerSecondPerLSB: 1.0 / 65.5)
            == Vector3(-66 / 65.5, 65 / 65.5, -32768 / 65.5))
        #expect(ICM20948.configValue(lowPass: 3, fullScale: 1) == 0x1B)
        #expect(ICM20948.AccelerometerRange.g16.lsbPerG == 2048)
    }

    @Test(
        "acceleration and angular rate equal the truth within one count",
        arguments: [
            (Vector3(0, 0, 1), Vector3(0, 0, 0)),
            (Vector3(-0.5, 0.25, -1), Vector3(-10.5, 3.25, 0.01)),
            (Vector3(3.999, -3.999, 0.0001), Vector3(499.9, -499.9, 250)),
            (Vector3(-1e-4, 2.5, -3.9), Vector3(-0.007, 123.456, -321.5)),
        ])
    func truth(acceleration: Vector3, rate: Vector3) throws {
        let rig = try Rig()
        try rig.driver.configure()
        rig.chip.setAcceleration(acceleration)
        rig.chip.setAngularRate(rate)
        #expect(isWithin(try rig.driver.readAcceleration(), acceleration, 1.0 / 8192))
        #expect(isWithin(try rig.driver.readAngularRate(), rate, 1.0 / 65.5))
    }

    @Test("past full scale the reading saturates at ±4 g")
    func saturation() throws {
        let rig = try Rig()
        try rig.driver.configure()
        rig.chip.setAcceleration(Vector3(9, -9, 0))
        rig.chip.setAngularRate(.zero)
        #expect(try rig.driver.readAcceleration() == Vector3(32767.0 / 8192, -4, 0))
    }

    @Test("nil before the first sample and after each sample has been read; one status read serves both")
    func dataReady() throws {
        let rig = try Rig()
        rig.chip.setAcceleration(Vector3(0, 0, 1))  // asleep: ignored
        try rig.driver.configure()
        #expect(try rig.driver.readAcceleration() == nil)
        #expect(try rig.driver.readAngularRate() == nil)
        rig.chip.setAcceleration(Vector3(0, 0, 1))
        rig.chip.setAngularRate(Vector3(1, 2, 3))
        rig.bus.clearTranscript()
        #expect(try rig.driver.readAngularRate() != nil)
        #expect(try rig.driver.readAcceleration() != nil)
        #expect(rig.bus.transcript.count == 2, "INT_STATUS_1, then the twelve data bytes in one burst")
        #expect(rig.bus.transcript.first?.description == "read 0x68 0x1A: 0x1")
        #expect(rig.bus.transcript.last?.register == 0x2D && rig.bus.transcript.last?.bytes.count == 12)
        #expect(try rig.driver.readAcceleration() == nil)
        #expect(try rig.driver.readAngularRate() == nil)
    }

    @Test("a bus fault surfaces with bus, address, register and errno; the next read recovers")
    func faults() throws {
        let rig = try Rig()
        try rig.driver.configure()
        rig.chip.setAcceleration(Vector3(0, 0, 1))
        rig.bus.injectFaults(at: 0x68, [EIO])
        let error = #expect(throws: I2CError.self) { try rig.driver.readAcceleration() }
        #expect(error?.bus == 1)
        #expect(error?.address == 0x68)
        #expect(error?.register == 0x1A)
        #expect(error?.errno.rawValue == EIO)
        #expect(isWithin(try rig.driver.readAcceleration(), Vector3(0, 0, 1), 1.0 / 8192))

        rig.bus.injectFaults(at: 0x68, [EREMOTEIO])
        let configureError = #expect(throws: I2CError.self) { try rig.driver.configure() }
        #expect(configureError?.register == 0x7F && configureError?.errno.rawValue == EREMOTEIO)
    }
}

@Suite("AK09916 behind the ICM-20948's bypass", .timeLimit(.minutes(5)))
struct AK09916Tests {
    /// The ICM-20948 configured (bypass on) and an AK09916 driver at 0x0C.
    private static func configuredRig() throws -> (Rig, AK09916, () -> [Duration]) {
        let rig = try Rig()
        try rig.driver.configure()
        rig.bus.clearTranscript()
        var pauses: [Duration] = []
        let magnetometer = AK09916(device: try rig.bus.device(at: 0x0C), pause: { pauses.append($0) })
        return (rig, magnetometer, { pauses })
    }

    @Test("0x0C does not acknowledge (ENXIO) until the ICM-20948 enables bypass")
    func invisibleUntilBypass() throws {
        let rig = try Rig()
        let magnetometer = AK09916(device: try rig.bus.device(at: 0x0C), pause: { _ in })
        let error = #expect(throws: I2CError.self) { try magnetometer.hasExpectedIdentity() }
        #expect(error?.address == 0x0C && error?.register == 0x00 && error?.errno.rawValue == ENXIO)
        try rig.driver.configure()
        #expect(try magnetometer.hasExpectedIdentity())
    }

    @Test("with bypass turned off again (an ICM reset) it no longer answers with its identity")
    func bypassOff() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        rig.chip.write(register: 0x06, value: 0x80)
        #expect(!rig.chip.isBypassEnabled)
        #expect(try !magnetometer.hasExpectedIdentity())
    }

    @Test("identity WIA1 0x48, WIA2 0x09 in one read")
    func identity() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        #expect(try magnetometer.hasExpectedIdentity())
        #expect(rig.bus.transcript.map(\.description) == ["read 0xc 0x0: 0x48 0x9"])
    }

    @Test("configure: soft reset, power-down, continuous mode 4 (100 Hz)")
    func initSequence() throws {
        let (rig, magnetometer, pauses) = try Self.configuredRig()
        try magnetometer.configure()
        #expect(rig.bus.transcript.map(\.description) == [
            "write 0xc 0x32 <- 0x1", "write 0xc 0x31 <- 0x0", "write 0xc 0x31 <- 0x8",
        ])
        #expect(pauses() == [AK09916.resetWait, AK09916.powerDownWait])
        #expect(rig.chip.magnetometer.currentMode == 0x08)
    }

    @Test(
        "the field equals the truth within one count (0.15 µT), chip axes",
        arguments: [
            Vector3(25.3, -4.1, -42.7), Vector3(0, 0, 0), Vector3(-4900, 4900, 0.07), Vector3(1000.01, -0.075, 12.34),
        ])
    func truth(field: Vector3) throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        try magnetometer.configure()
        rig.chip.magnetometer.setField(field)
        #expect(isWithin(try magnetometer.readMagneticField(), field, AK09916.microteslaPerLSB))
    }

    @Test("one burst from ST1 through ST2; nil before data, after it was read, and on overflow (HOFL)")
    func dataReady() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        rig.chip.magnetometer.setField(Vector3(10, 20, 30))  // still powered down: ignored
        try magnetometer.configure()
        #expect(try magnetometer.readMagneticField() == nil)
        rig.chip.magnetometer.setField(Vector3(0.15, -0.3, 0.45))
        rig.bus.clearTranscript()
        #expect(isWithin(try magnetometer.readMagneticField(), Vector3(0.15, -0.3, 0.45), 1e-9))
        #expect(rig.bus.transcript.map(\.description) == ["read 0xc 0x10: 0x1 0x1 0x0 0xFE 0xFF 0x3 0x0 0x0 0x0"])
        #expect(try magnetometer.readMagneticField() == nil)
        rig.chip.magnetometer.setField(Vector3(5000, 0, 0))
        #expect(try magnetometer.readMagneticField() == nil, "HOFL: the value is meaningless")
        rig.chip.magnetometer.setField(Vector3(50, 0, 0))
        #expect(isWithin(try magnetometer.readMagneticField(), Vector3(50, 0, 0), AK09916.microteslaPerLSB))
    }

    @Test("data read without ST2 stays latched: a newer sample waits until ST2 is read")
    func statusTwoRelease() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        try magnetometer.configure()
        let device = try rig.bus.device(at: 0x0C)
        let first = Vector3(30, -15, 45)
        let second = Vector3(-60, 7.5, -22.5)
        func data() throws -> Vector3 {
            AK09916.decodeField(RegisterBlock([0] + (try device.readRegisters(0x11, count: 6))), microteslaPerLSB: 0.15)
        }
        rig.chip.magnetometer.setField(first)
        #expect(try device.readRegister(0x10) & 0x01 == 0x01, "DRDY")
        #expect(isWithin(try data(), first, 1e-9))
        rig.chip.magnetometer.setField(second)
        #expect(try device.readRegister(0x10) & 0x01 == 0, "reading started: DRDY clear, new data held back")
        #expect(isWithin(try data(), first, 1e-9), "still the first sample")
        _ = try device.readRegister(0x18)  // ST2 ends the read
        #expect(try device.readRegister(0x10) & 0x01 == 0x01, "the held sample is now ready")
        #expect(isWithin(try data(), second, 1e-9))
        _ = try device.readRegister(0x18)
        // The driver's burst ends in ST2, so the next sample lands at once.
        rig.chip.magnetometer.setField(first)
        #expect(isWithin(try magnetometer.readMagneticField(), first, 1e-9))
        rig.chip.magnetometer.setField(second)
        #expect(isWithin(try magnetometer.readMagneticField(), second, 1e-9))
    }

    @Test("an unread sample overwritten by the next sets DOR; the newest value is returned")
    func overrun() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        try magnetometer.configure()
        rig.chip.magnetometer.setField(Vector3(1.5, 0, 0))
        rig.chip.magnetometer.setField(Vector3(3, 0, 0))
        rig.bus.clearTranscript()
        #expect(isWithin(try magnetometer.readMagneticField(), Vector3(3, 0, 0), 1e-9))
        #expect(rig.bus.transcript.first?.bytes.first == 0x03, "ST1: DRDY and DOR")
    }

    @Test("a mode change that skips power-down is ignored, as the datasheet forbids it")
    func modeChangesPassThroughPowerDown() {
        let chip = AK09916Emulator()
        chip.write(register: 0x31, value: 0x08)
        chip.write(register: 0x31, value: 0x02)
        #expect(chip.currentMode == 0x08)
        chip.write(register: 0x31, value: 0x00)
        chip.write(register: 0x31, value: 0x02)
        #expect(chip.currentMode == 0x02)
    }

    @Test("a fault on 0x0C surfaces with its address, register and errno")
    func faults() throws {
        let (rig, magnetometer, _) = try Self.configuredRig()
        try magnetometer.configure()
        rig.bus.injectFaults(at: 0x0C, [EIO])
        let error = #expect(throws: I2CError.self) { try magnetometer.readMagneticField() }
        #expect(error == I2CError(bus: 1, address: 0x0C, register: 0x10, operation: "read 9 bytes", errno: EIO))
    }
}
