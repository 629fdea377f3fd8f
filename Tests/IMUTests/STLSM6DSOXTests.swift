@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LSM6DSOX on its register emulator")
struct STLSM6DSOXTests {
    static let address: UInt8 = 0x6A
    static let accelerationLSB = Vector3(0.122e-3, 0.122e-3, 0.122e-3)
    static let rateLSB = Vector3(17.5e-3, 17.5e-3, 17.5e-3)

    let bus = SimulatedI2CBus()
    let emulator = LSM6DSOXEmulator()
    let driver: LSM6DSOX

    init() throws {
        bus.attach(emulator)
        driver = LSM6DSOX(device: try bus.device(at: Self.address))
    }

    @Test("configure writes BDU + IF_INC, I3C off, then 52 Hz ±4 g and 52 Hz ±500 °/s")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x12, 0x44),  // CTRL3_C: BDU, IF_INC
                RegisterWrite(0x18, 0xE2),  // CTRL9_XL: DEN defaults, I3C_disable
                RegisterWrite(0x10, 0x38),  // CTRL1_XL: 52 Hz, ±4 g
                RegisterWrite(0x11, 0x34),  // CTRL2_G: 52 Hz, ±500 °/s
            ])
        #expect(LSM6DSOX.hasGyroscope)
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
        #expect(LSM6DSOX.decodeAcceleration(bytes, gPerLSB: 1) == Vector3(-32768, 32767, 1))
        #expect(LSM6DSOX.decodeAngularRate(bytes, degreesPerSecondPerLSB: 1) == Vector3(-32768, 32767, 1))
    }

    @Test("no sample before configuration or before new data; each sensor's sample is reported once")
    func dataReady() throws {
        emulator.setAcceleration(Vector3(0, 0, 1))
        emulator.setAngularRate(Vector3(1, 2, 3))
        #expect(try driver.readAcceleration() == nil, "power-down after reset")
        #expect(try driver.readAngularRate() == nil)
        #expect(emulator.read(register: 0x1E, count: 16).allSatisfy { $0 == 0 }, "status and output stay zero")
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
        expectI2CError(address: Self.address, register: 0x12, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setAcceleration(Vector3(0, 0, 1))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x1E, errno: EIO) { () throws(I2CError) in
            try driver.readAcceleration()
        }
        #expect(try driver.readAcceleration() != nil, "the fault was transient")
    }

    @Test("auto-increment follows IF_INC: cleared, a burst repeats OUTX_L; the driver keeps it set")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(0.123, -0.456, 0.789)
        emulator.setAcceleration(truth)
        emulator.write(register: 0x12, value: 0x40)  // BDU only, IF_INC cleared
        #expect(isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        emulator.write(register: 0x12, value: 0x44)
        #expect(!isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        #expect(emulator.read(register: 0xA8, count: 6).allSatisfy { $0 == 0 }, "there is no 0x80 multi-read bit")
        emulator.setAcceleration(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.accelerationLSB)
        #expect(bus.registersRead(from: Self.address) == [0x1E, 0x28])
    }

    @Test("WHO_AM_I reads 0x6C")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        #expect(emulator.read(register: 0x0F, count: 1) == [0x6C])
    }
}
