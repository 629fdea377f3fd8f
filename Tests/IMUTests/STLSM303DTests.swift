@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LSM303D on its register emulator")
struct STLSM303DTests {
    static let address: UInt8 = 0x1D
    static let fieldLSB = Vector3(0.016, 0.016, 0.016)
    static let accelerationLSB = Vector3(0.122e-3, 0.122e-3, 0.122e-3)

    let bus = SimulatedI2CBus()
    let emulator = LSM303DEmulator()
    let driver: LSM303D

    init() throws {
        bus.attach(emulator)
        driver = LSM303D(device: try bus.device(at: Self.address))
    }

    @Test("configure writes ±4 g, 50 Hz + BDU, high-resolution 50 Hz magnetometer, ±4 gauss, continuous")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x21, 0x08),  // CTRL2: AFS ±4 g
                RegisterWrite(0x20, 0x5F),  // CTRL1: AODR 50 Hz, BDU, X/Y/Z on
                RegisterWrite(0x24, 0x70),  // CTRL5: M_RES high, M_ODR 50 Hz
                RegisterWrite(0x25, 0x20),  // CTRL6: MFS ±4 gauss
                RegisterWrite(0x26, 0x00),  // CTRL7: MD continuous
            ])
        // One class serves both roles.
        let magnetometer: any MagnetometerDriver = driver
        let accelerometer: any AccelerometerDriver = driver
        #expect(type(of: magnetometer).chipName == "LSM303D" && !type(of: accelerometer).hasGyroscope)
    }

    @Test("the decoded field is the truth within one LSB", arguments: truths(fullScale: 400))
    func fieldRoundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setField(truth)
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.fieldLSB)
    }

    @Test(
        "decoded force is the truth within one LSB (flat, face up: +1 g on z)",
        arguments: [Vector3(0, 0, 1)] + truths(fullScale: 4))
    func accelerationRoundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setAcceleration(truth)
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.accelerationLSB)
    }

    @Test("decoding is little-endian X, Y, Z for both halves, all 16 bits significant")
    func decodeLayout() {
        let bytes: [UInt8] = [0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00]
        #expect(LSM303D.decodeField(bytes, microteslaPerLSB: 1) == Vector3(-32768, 32767, 1))
        #expect(LSM303D.decodeAcceleration(bytes, gPerLSB: 1) == Vector3(-32768, 32767, 1))
    }

    @Test("no sample before configuration or before new data; each half's sample is reported once")
    func dataReady() throws {
        emulator.setField(Vector3(20, 0, -40))
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readMagneticField() == nil, "power-down after reset")
        #expect(try driver.readAcceleration() == nil)
        #expect(emulator.read(register: 0x87, count: 7) == [UInt8](repeating: 0, count: 7))
        #expect(emulator.read(register: 0xA7, count: 7) == [UInt8](repeating: 0, count: 7))
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        #expect(try driver.readAcceleration() == nil)
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readAcceleration() == nil, "a new field does not announce a force")
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readMagneticField() == nil)
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readAcceleration() != nil)
        #expect(try driver.readAcceleration() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x21, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setField(Vector3(1, 2, 3))
        emulator.setAcceleration(Vector3(0, 0, 1))
        bus.injectFaults(at: Self.address, [EIO, EIO])
        expectI2CError(address: Self.address, register: 0x07, errno: EIO) { () throws(I2CError) in
            try driver.readMagneticField()
        }
        expectI2CError(address: Self.address, register: 0x27, errno: EIO) { () throws(I2CError) in
            try driver.readAcceleration()
        }
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readAcceleration() != nil)
    }

    @Test("without the 0x80 bit a burst repeats the first output register, so the driver sets it")
    func autoIncrement() throws {
        try driver.configure()
        let field = Vector3(12.3, -45.6, 78.9)
        let force = Vector3(0.123, -0.456, 0.789)
        emulator.setField(field)
        emulator.setAcceleration(force)
        #expect(isOneByteRepeated(emulator.read(register: 0x08, count: 6)))
        #expect(isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        emulator.setField(field)
        emulator.setAcceleration(force)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readMagneticField(), field, lsb: Self.fieldLSB)
        expectWithinOneLSB(try driver.readAcceleration(), force, lsb: Self.accelerationLSB)
        #expect(bus.registersRead(from: Self.address) == [0x07, 0x88, 0x27, 0xA8])
    }

    @Test("WHO_AM_I reads 0x49")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        #expect(emulator.read(register: 0x0F, count: 1) == [0x49])
    }
}
