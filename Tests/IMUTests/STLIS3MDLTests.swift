@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

@Suite("LIS3MDL on its register emulator")
struct STLIS3MDLTests {
    static let address: UInt8 = 0x1C
    static let lsb = Vector3(100.0 / 6842, 100.0 / 6842, 100.0 / 6842)
    /// ±4 gauss.
    static let fullScale = 400.0

    let bus = SimulatedI2CBus()
    let emulator = LIS3MDLEmulator()
    let driver: LIS3MDL

    init() throws {
        bus.attach(emulator)
        driver = LIS3MDL(device: try bus.device(at: Self.address))
    }

    @Test("configure writes ±4 gauss, UHP X/Y at 80 Hz, UHP Z, BDU, then continuous mode")
    func initSequence() throws {
        try driver.configure()
        #expect(
            bus.writes(to: Self.address) == [
                RegisterWrite(0x21, 0x00),  // CTRL_REG2: FS ±4 gauss
                RegisterWrite(0x20, 0x7C),  // CTRL_REG1: OM UHP, DO 80 Hz
                RegisterWrite(0x23, 0x0C),  // CTRL_REG4: OMZ UHP, little-endian
                RegisterWrite(0x24, 0x40),  // CTRL_REG5: BDU
                RegisterWrite(0x22, 0x00),  // CTRL_REG3: continuous
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
        let field = LIS3MDL.decodeField([0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00], microteslaPerLSB: 1)
        #expect(field == Vector3(-32768, 32767, 1))
    }

    @Test("no sample before configuration or before new data; each sample is reported once")
    func dataReady() throws {
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() == nil, "power-down after reset")
        #expect(emulator.read(register: 0xA7, count: 7) == [UInt8](repeating: 0, count: 7), "output stays zero")
        try driver.configure()
        #expect(try driver.readMagneticField() == nil, "configured, but no new sample yet")
        emulator.setField(Vector3(20, 0, -40))
        #expect(try driver.readMagneticField() != nil)
        #expect(try driver.readMagneticField() == nil, "reading the output cleared the data-ready bits")
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno")
    func fault() throws {
        bus.injectFaults(at: Self.address, [EREMOTEIO])
        expectI2CError(address: Self.address, register: 0x21, errno: EREMOTEIO) { () throws(I2CError) in
            try driver.configure()
        }
        try driver.configure()
        emulator.setField(Vector3(1, 2, 3))
        bus.injectFaults(at: Self.address, [EIO])
        expectI2CError(address: Self.address, register: 0x27, errno: EIO) { () throws(I2CError) in
            try driver.readMagneticField()
        }
        #expect(try driver.readMagneticField() != nil, "the fault was transient; the sample is still there")
    }

    @Test("without the 0x80 bit a burst repeats OUT_X_L, so the driver reads from 0xA8")
    func autoIncrement() throws {
        try driver.configure()
        let truth = Vector3(12.3, -45.6, 78.9)
        emulator.setField(truth)
        let repeated = emulator.read(register: 0x28, count: 6)
        #expect(isOneByteRepeated(repeated))
        #expect(!isOneByteRepeated(emulator.read(register: 0xA8, count: 6)))
        emulator.setField(truth)
        bus.clearTranscript()
        expectWithinOneLSB(try driver.readMagneticField(), truth, lsb: Self.lsb)
        #expect(bus.registersRead(from: Self.address) == [0x27, 0xA8])
    }

    @Test("WHO_AM_I reads 0x3D, the same as the LSM9DS1 magnetometer's")
    func identity() throws {
        #expect(try driver.hasExpectedIdentity())
        #expect(emulator.read(register: 0x0F, count: 1) == [0x3D])
        let other = SimulatedI2CBus()
        other.attach(LSM9DS1MagnetometerEmulator())
        #expect(try LIS3MDL(device: other.device(at: 0x1C)).hasExpectedIdentity(), "the identities clash")
    }
}
