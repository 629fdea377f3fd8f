@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LSM303AGR magnetometer on its register emulator")
struct STLSM303AGRMagnetometerTests {
    static let address: UInt8 = 0x1E
    static let lsb = Vector3(0.15, 0.15, 0.15)
    /// The int16 range at 0.15 µT per count reaches ±4915 µT (the part's ±50 gauss).
    static let fullScale = 4900.0

    let bus = SimulatedI2CBus()
    let emulator = LSM303AGRMagnetometerEmulator()
    let driver: LSM303AGRMagnetometer

    init() throws {
        bus.attach(emulator)
        driver = LSM303AGRMagnetometer(device: try bus.device(at: Self.address))
    }

    @Test("configure writes BDU, then temperature compensation, 100 Hz, continuous")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x62, 0x10),  // CFG_REG_C_M: BDU
                RegisterWrite(0x60, 0x8C),  // CFG_REG_A_M: COMP_TEMP_EN, ODR 100 Hz, MD continuous
            ])
    }

    @Test("the decoded field is the emulator's truth within one LSB", arguments: truths(fullScale: fullScale))
    func roundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setField(truth)
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
    }

    @Test("decoding is little-endian X, Y, Z")
    func decodeLayout() {
        let field = LSM303AGRMagnetometer.decodeField([0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00], microteslaPerLSB: 1)
        #expect(field == Vector3(-32768, 32767, 1))
    }

    @Test("no sample before configuration (idle after reset) or before new data; each sample once")
    func dataReady() throws {
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() == nil)
        #expect(emulator.read(register: 0x67, count: 7) == [UInt8](repeating: 0, count: 7))
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readMagneticField() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x62, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setField(Vector3(1, 2, 3))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x67, errno: EIO) { () throws(I2CError) in
            try driver.readMagneticField()
        }
        #expect(try driver.readMagneticField() != nil)
    }

    @Test("the magnetometer auto-increments by itself; the 0x80 bit is ignored, so the driver omits it")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(12.3, -45.6, 78.9)
        emulator.setField(truth)
        let plain = emulator.read(register: 0x68, count: 6)
        #expect(!isOneByteRepeated(plain))
        #expect(emulator.read(register: 0xE8, count: 6) == plain)
        emulator.setField(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
        #expect(bus.registersRead(from: Self.address) == [0x67, 0x68])
    }

    @Test("WHO_AM_I_M at 0x4F reads 0x40; 0x0F reads nothing")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        #expect(emulator.read(register: 0x4F, count: 1) == [0x40])
        #expect(emulator.read(register: 0x0F, count: 1) == [0x00])
    }
}

@Suite("LSM303AGR accelerometer on its register emulator")
struct STLSM303AGRAccelerometerTests {
    static let address: UInt8 = 0x19
    static let lsb = Vector3(1.95e-3, 1.95e-3, 1.95e-3)

    let bus = SimulatedI2CBus()
    let emulator = LSM303AGRAccelerometerEmulator()
    let driver: LSM303AGRAccelerometer

    init() throws {
        bus.attach(emulator)
        driver = LSM303AGRAccelerometer(device: try bus.device(at: Self.address))
    }

    @Test("configure writes BDU, ±4 g, high resolution, then 100 Hz with all axes")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x23, 0x98),  // CTRL_REG4_A: BDU, FS ±4 g, HR
                RegisterWrite(0x20, 0x57),  // CTRL_REG1_A: ODR 100 Hz, X/Y/Z on
            ])
        #expect(!LSM303AGRAccelerometer.hasGyroscope)
        #expect(try driver.readAngularRate() == nil)
    }

    @Test(
        "decoded force is the truth within one LSB (flat, face up: +1 g on z)",
        arguments: [Vector3(0, 0, 1)] + truths(fullScale: 4))
    func roundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setAcceleration(truth)
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.lsb)
    }

    @Test("output is 12 bits left-justified: the decoder shifts right by 4, keeping the sign")
    func leftJustified() throws {
        let decoded = LSM303AGRAccelerometer.decodeAcceleration([0x00, 0x80, 0xF0, 0x7F, 0x10, 0x00], gPerLSB: 1)
        #expect(decoded == Vector3(-2048, 2047, 1))
        try driver.configure()
        emulator.setAcceleration(Vector3(0.3, -0.7, 1))
        let bytes = emulator.read(register: 0xA8, count: 6)
        #expect([bytes[0], bytes[2], bytes[4]].allSatisfy { $0 & 0x0F == 0 }, "the low nibble is unused")
    }

    @Test("no sample before configuration (power-down after reset) or before new data; each sample once")
    func dataReady() throws {
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readAcceleration() == nil)
        #expect(emulator.read(register: 0xA7, count: 7) == [UInt8](repeating: 0, count: 7))
        try driver.configure()
        #expect(try driver.readAcceleration() == nil)
        emulator.setAcceleration(Vector3(0, 0, 1))
        #expect(try driver.readAcceleration() != nil)
        #expect(try driver.readAcceleration() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x23, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setAcceleration(Vector3(0, 0, 1))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x27, errno: EIO) { () throws(I2CError) in
            try driver.readAcceleration()
        }
        #expect(try driver.readAcceleration() != nil)
    }

    @Test("without the 0x80 bit a burst repeats OUT_X_L_A, so the driver reads from 0xA8")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(0.123, -0.456, 0.789)
        emulator.setAcceleration(truth)
        #expect(isOneByteRepeated(emulator.read(register: 0x28, count: 6)))
        emulator.setAcceleration(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readAcceleration(), truth, lsb: Self.lsb)
        #expect(bus.registersRead(from: Self.address) == [0x27, 0xA8])
    }

    @Test("WHO_AM_I_A reads 0x33, the same as the LSM303DLHC accelerometer's")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        let other = SimulatedI2CBus()
        other.attach(LSM303DLHCAccelerometerEmulator())
        #expect(
            try LSM303AGRAccelerometer(device: other.device(at: 0x19)).hasExpectedIdentity(), "the identities clash")
    }
}
