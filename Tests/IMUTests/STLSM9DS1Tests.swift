@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LSM9DS1 accelerometer/gyroscope on its register emulator")
struct STLSM9DS1AccelerometerGyroscopeTests {
    static let address: UInt8 = 0x6A
    static let accelerationLSB = Vector3(0.122e-3, 0.122e-3, 0.122e-3)
    static let rateLSB = Vector3(17.5e-3, 17.5e-3, 17.5e-3)

    let bus = SimulatedI2CBus()
    let emulator = LSM9DS1AccelerometerGyroscopeEmulator()
    let driver: LSM9DS1AccelerometerGyroscope

    init() throws {
        bus.attach(emulator)
        driver = LSM9DS1AccelerometerGyroscope(device: try bus.device(at: Self.address))
    }

    @Test("configure writes BDU + IF_ADD_INC, axis enables, ±4 g, then 59.5 Hz ±500 °/s last")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x22, 0x44),  // CTRL_REG8: BDU, IF_ADD_INC
                RegisterWrite(0x1E, 0x38),  // CTRL_REG4: gyroscope X/Y/Z on
                RegisterWrite(0x1F, 0x38),  // CTRL_REG5_XL: accelerometer X/Y/Z on
                RegisterWrite(0x20, 0x50),  // CTRL_REG6_XL: 50 Hz alone, ±4 g
                RegisterWrite(0x10, 0x48),  // CTRL_REG1_G: 59.5 Hz, ±500 °/s, starts both
            ])
        #expect(LSM9DS1AccelerometerGyroscope.hasGyroscope)
    }

    @Test(
        "decoded force is the truth within one LSB (flat, face up: +1 g on z)",
        arguments: [Vector3(0, 0, 1)] + truths(fullScale: 4))
    func accelerationRoundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setAcceleration(truth)
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.accelerationLSB)
    }

    @Test("decoded rate is the truth within one LSB", arguments: truths(fullScale: 500))
    func rateRoundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setAngularRate(truth)
        expectWithinOneLSB(try driver.readAngularRate(), truth, lsb: Self.rateLSB)
    }

    @Test("decoding is little-endian X, Y, Z for both sensors")
    func decodeLayout() {
        let bytes: [UInt8] = [0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00]
        #expect(LSM9DS1AccelerometerGyroscope.decodeAcceleration(bytes, gPerLSB: 1) == Vector3(-32768, 32767, 1))
        #expect(
            LSM9DS1AccelerometerGyroscope.decodeAngularRate(bytes, degreesPerSecondPerLSB: 1)
                == Vector3(-32768, 32767, 1))
    }

    @Test("no sample before configuration or before new data; each sensor's sample is reported once")
    func dataReady() throws {
        emulator.setAcceleration(Vector3(0, 0, 1))
        emulator.setAngularRate(Vector3(1, 2, 3))
        #expect(try driver.readAcceleration() == nil, "power-down after reset")
        #expect(try driver.readAngularRate() == nil)
        #expect(emulator.read(register: 0x17, count: 7).allSatisfy { $0 == 0 }, "status and gyroscope output stay zero")
        #expect(emulator.read(register: 0x27, count: 7).allSatisfy { $0 == 0 }, "status and accelerometer output too")
        try driver.configure()
        #expect(try driver.readAcceleration() == nil)
        #expect(try driver.readAngularRate() == nil)
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readAngularRate() == nil, "a new force does not announce a rate")
        #expect(try driver.readAcceleration() != nil)
        #expect(try driver.readAcceleration() == nil)
        emulator.setAngularRate(Vector3(1, 2, 3))
        #expect(try driver.readAngularRate() != nil)
        #expect(try driver.readAngularRate() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x22, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setAngularRate(Vector3(1, 2, 3))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x17, errno: EIO) { () throws(I2CError) in
            try driver.readAngularRate()
        }
        #expect(try driver.readAngularRate() != nil, "the fault was transient")
    }

    @Test("auto-increment follows IF_ADD_INC: cleared, a burst repeats OUT_X_L_XL; the driver keeps it set")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(0.123, -0.456, 0.789)
        emulator.setAcceleration(truth)
        emulator.write(register: 0x22, value: 0x40)  // BDU only, IF_ADD_INC cleared
        #expect(isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        emulator.write(register: 0x22, value: 0x44)
        #expect(!isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        #expect(emulator.read(register: 0xA8, count: 6).allSatisfy { $0 == 0 }, "there is no 0x80 multi-read bit")
        emulator.setAcceleration(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.accelerationLSB)
        #expect(bus.registersRead(from: Self.address) == [0x17, 0x28])
    }

    @Test("WHO_AM_I reads 0x68; the status register is mirrored at 0x27")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        try driver.configure()
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(emulator.read(register: 0x27, count: 1) == emulator.read(register: 0x17, count: 1))
        #expect(emulator.read(register: 0x17, count: 1) == [0x01])
    }
}

@Suite("LSM9DS1 magnetometer on its register emulator")
struct STLSM9DS1MagnetometerTests {
    static let address: UInt8 = 0x1C
    static let lsb = Vector3(0.014, 0.014, 0.014)
    /// ±4 gauss.
    static let fullScale = 400.0

    let bus = SimulatedI2CBus()
    let emulator = LSM9DS1MagnetometerEmulator()
    let driver: LSM9DS1Magnetometer

    init() throws {
        bus.attach(emulator)
        driver = LSM9DS1Magnetometer(device: try bus.device(at: Self.address))
    }

    @Test("configure writes ±4 gauss, temperature-compensated UHP at 80 Hz, UHP Z, BDU, then continuous")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x21, 0x00),  // CTRL_REG2_M: FS ±4 gauss
                RegisterWrite(0x20, 0xFC),  // CTRL_REG1_M: TEMP_COMP, OM UHP, DO 80 Hz
                RegisterWrite(0x23, 0x0C),  // CTRL_REG4_M: OMZ UHP, little-endian
                RegisterWrite(0x24, 0x40),  // CTRL_REG5_M: BDU
                RegisterWrite(0x22, 0x00),  // CTRL_REG3_M: continuous
            ])
    }

    @Test("the decoded field is the emulator's truth within one LSB", arguments: truths(fullScale: fullScale))
    func roundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setField(truth)
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
    }

    @Test("no sample before configuration or before new data; each sample is reported once")
    func dataReady() throws {
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() == nil, "power-down after reset")
        #expect(emulator.read(register: 0xA7, count: 7) == [UInt8](repeating: 0, count: 7))
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readMagneticField() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        try driver.configure()
        emulator.setField(Vector3(1, 2, 3))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x27, errno: EIO) { () throws(I2CError) in
            try driver.readMagneticField()
        }
        #expect(try driver.readMagneticField() != nil)
    }

    @Test("without the 0x80 bit a burst repeats OUT_X_L_M, so the driver reads from 0xA8")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(12.3, -45.6, 78.9)
        emulator.setField(truth)
        #expect(isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        emulator.setField(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
        #expect(bus.registersRead(from: Self.address) == [0x27, 0xA8])
    }

    @Test("WHO_AM_I_M reads 0x3D, the same as LIS3MDL's")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        let other = SimulatedI2CBus()
        other.attach(LIS3MDLEmulator())
        #expect(try LSM9DS1Magnetometer(device: other.device(at: 0x1C)).hasExpectedIdentity(), "the identities clash")
    }
}
