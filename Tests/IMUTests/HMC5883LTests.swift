@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

@Suite("HMC5883L: big-endian X, Z, Y; RDY that reading does not clear", .timeLimit(.minutes(5)))
struct HMC5883LTests {
    private static let lsb = HMC5883L.Gain.gauss1_3.microteslaPerLSB

    private static func isWithin(_ measured: Vector3?, _ truth: Vector3, _ tolerance: Double) -> Bool {
        guard let measured else { return false }
        return abs(measured.x - truth.x) <= tolerance && abs(measured.y - truth.y) <= tolerance
            && abs(measured.z - truth.z) <= tolerance
    }

    private static func rig() throws -> (SimulatedI2CBus, HMC5883LEmulator, HMC5883L) {
        let bus = SimulatedI2CBus(number: 1)
        let chip = HMC5883LEmulator()
        bus.attach(chip)
        return (bus, chip, HMC5883L(device: try bus.device(at: 0x1E)))
    }

    @Test("configure: 8-sample average at 75 Hz, ±1.3 G, continuous")
    func initSequence() throws {
        let (bus, _, driver) = try Self.rig()
        try driver.configure()
        #expect(bus.transcript.map(\.description) == [
            "write 0x1e 0x0 <- 0x78", "write 0x1e 0x1 <- 0x20", "write 0x1e 0x2 <- 0x0",
        ])
    }

    @Test("identity: \"H43\" at 0x0A-0x0C")
    func identity() throws {
        let (bus, _, driver) = try Self.rig()
        #expect(try driver.hasExpectedIdentity())
        #expect(bus.transcript.map(\.description) == ["read 0x1e 0xA: 0x48 0x34 0x33"])
    }

    @Test("decoding: big-endian in the register order X, Z, Y")
    func decode() {
        let bytes: RegisterBlock = [0x01, 0x00, 0x02, 0x00, 0xFD, 0x00]
        #expect(HMC5883L.decodeField(bytes, microteslaPerLSB: 1) == Vector3(256, -768, 512))
        #expect(HMC5883L.isOverflow([0xF0, 0x00, 0, 0, 0, 0]))
        #expect(!HMC5883L.isOverflow([0xF8, 0x00, 0x07, 0xFF, 0, 0]))
        #expect(HMC5883L.Gain.gauss1_3.configurationBValue == 0x20)
    }

    @Test(
        "the field equals the truth within one count",
        arguments: [Vector3(20.5, -5.25, -45.1), Vector3(-187, 187, 0.05), Vector3(0.04, 100, -150)])
    func truth(field: Vector3) throws {
        let (_, chip, driver) = try Self.rig()
        try driver.configure()
        chip.setField(field)
        #expect(Self.isWithin(try driver.readMagneticField(), field, Self.lsb))
    }

    @Test("nil before data; a sample is returned once although RDY stays set")
    func dataReady() throws {
        let (bus, chip, driver) = try Self.rig()
        chip.setField(Vector3(10, 10, 10))  // not yet configured: ignored
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        chip.setField(Vector3(10, 20, 30))
        bus.clearTranscript()
        #expect(try driver.readMagneticField() != nil)
        #expect(bus.transcript.map(\.description) == [
            "read 0x1e 0x9: 0x1", "read 0x1e 0x3: 0x0 0x6D 0x1 0x47 0x0 0xDA",
        ])
        #expect(try bus.device(at: 0x1E).readRegister(0x09) == 0x01, "RDY still set")
        #expect(try driver.readMagneticField() == nil, "the same sample again")
        chip.setField(Vector3(10, 20, 31))
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(10, 20, 31), Self.lsb))
    }

    @Test("an axis out of range reads -4096 and the sample is dropped")
    func overflow() throws {
        let (_, chip, driver) = try Self.rig()
        try driver.configure()
        chip.setField(Vector3(0, 0, 190))
        #expect(try driver.readMagneticField() == nil)
        chip.setField(Vector3(0, 0, -150))
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(0, 0, -150), Self.lsb))
    }

    @Test("a partial data read locks the registers until all six are read")
    func lock() throws {
        let (bus, chip, driver) = try Self.rig()
        try driver.configure()
        let device = try bus.device(at: 0x1E)
        chip.setField(Vector3(10, 0, 0))
        _ = try device.readRegisters(0x03, count: 2)
        #expect(try device.readRegister(0x09) == 0x03, "RDY and LOCK")
        chip.setField(Vector3(20, 0, 0))  // dropped while locked
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(10, 0, 0), Self.lsb))
        #expect(try device.readRegister(0x09) == 0x01, "unlocked by reading all six")
        chip.setField(Vector3(30, 0, 0))
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(30, 0, 0), Self.lsb))
    }

    @Test("the pointer wraps from 0x08 to 0x03, so the status needs its own read")
    func pointerWrap() throws {
        let (bus, chip, driver) = try Self.rig()
        try driver.configure()
        chip.setField(Vector3(0, 0, 0.1))
        let bytes = try bus.device(at: 0x1E).readRegisters(0x03, count: 8)
        #expect(bytes == [0, 0, 0, 1, 0, 0, 0, 0])
    }

    @Test("a fault surfaces with bus, address, register and errno")
    func faults() throws {
        let (bus, _, driver) = try Self.rig()
        bus.injectFaults(at: 0x1E, [EREMOTEIO])
        let error = #expect(throws: I2CError.self) { try driver.configure() }
        #expect(error == I2CError(bus: 1, address: 0x1E, register: 0x00, operation: "write", errno: EREMOTEIO))
        try driver.configure()
        bus.injectFaults(at: 0x1E, [EIO])
        let readError = #expect(throws: I2CError.self) { try driver.readMagneticField() }
        #expect(readError?.register == 0x09 && readError?.errno.rawValue == EIO)
    }
}
