@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LSM303DLHC magnetometer on its register emulator")
struct STLSM303DLHCMagnetometerTests {
    static let address: UInt8 = 0x1E
    static let lsb = Vector3(100.0 / 1100, 100.0 / 1100, 100.0 / 980)
    /// ±1.3 gauss.
    static let fullScale = 130.0

    let bus = SimulatedI2CBus()
    let emulator = LSM303DLHCMagnetometerEmulator()
    let driver: LSM303DLHCMagnetometer

    init() throws {
        bus.attach(emulator)
        driver = LSM303DLHCMagnetometer(device: try bus.device(at: Self.address))
    }

    @Test("configure writes 75 Hz, ±1.3 gauss, then continuous")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x00, 0x18),  // CRA_REG_M: DO 75 Hz
                RegisterWrite(0x01, 0x20),  // CRB_REG_M: GN ±1.3 gauss
                RegisterWrite(0x02, 0x00),  // MR_REG_M: continuous
            ])
    }

    @Test("the decoded field is the truth within one LSB (Z has its own gain)", arguments: truths(fullScale: fullScale))
    func roundTrip(truth: Vector3) throws {
        try driver.configure()
        emulator.setField(truth)
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
    }

    @Test("decoding is big-endian in the order X, Z, Y")
    func decodeLayout() {
        let field = LSM303DLHCMagnetometer.decodeField(
            [0x80, 0x00, 0x00, 0x01, 0x7F, 0xFF], microteslaPerLSBXY: 1, microteslaPerLSBZ: 2)
        #expect(field == Vector3(-32768, 32767, 2))
    }

    @Test("no sample before configuration (sleep after reset) or before new data; each sample once")
    func dataReady() throws {
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() == nil)
        #expect(emulator.read(register: 0x03, count: 7) == [UInt8](repeating: 0, count: 7))
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readMagneticField() == nil)
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x00, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setField(Vector3(1, 2, 3))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x09, errno: EIO) { () throws(I2CError) in
            try driver.readMagneticField()
        }
        #expect(try driver.readMagneticField() != nil)
    }

    @Test("the magnetometer auto-increments by itself, so the driver reads from 0x03 without 0x80")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(12.3, -45.6, 78.9)
        emulator.setField(truth)
        #expect(!isOneByteRepeated(emulator.read(register: 0x03, count: 6)))
        emulator.setField(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
        #expect(bus.registersRead(from: Self.address) == [0x09, 0x03])
    }

    @Test("0x0F reads the undocumented 0x3C and IRA/IRB/IRC read \"H43\" like an HMC5883L")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        #expect(emulator.read(register: 0x0A, count: 3) == Array("H43".utf8))
    }
}

@Suite("LSM303DLHC accelerometer on its register emulator")
struct STLSM303DLHCAccelerometerTests {
    static let address: UInt8 = 0x19
    static let lsb = Vector3(2e-3, 2e-3, 2e-3)

    let bus = SimulatedI2CBus()
    let emulator = LSM303DLHCAccelerometerEmulator()
    let driver: LSM303DLHCAccelerometer

    init() throws {
        bus.attach(emulator)
        driver = LSM303DLHCAccelerometer(device: try bus.device(at: Self.address))
    }

    @Test("configure writes BDU, ±4 g, high resolution, then 100 Hz with all axes")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x23, 0x98),  // CTRL_REG4_A: BDU, FS ±4 g, HR
                RegisterWrite(0x20, 0x57),  // CTRL_REG1_A: ODR 100 Hz, X/Y/Z on
            ])
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
    func leftJustified() {
        let decoded = LSM303DLHCAccelerometer.decodeAcceleration([0x00, 0x80, 0xF0, 0x7F, 0xF0, 0xFF], gPerLSB: 1)
        #expect(decoded == Vector3(-2048, 2047, -1))
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

    @Test("WHO_AM_I_A reads 0x33, the same as the LSM303AGR accelerometer's")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        let other = SimulatedI2CBus()
        other.attach(LSM303AGRAccelerometerEmulator())
        #expect(
            try LSM303DLHCAccelerometer(device: other.device(at: 0x19)).hasExpectedIdentity(), "the identities clash")
    }
}
