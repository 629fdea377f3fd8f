@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

@Suite("QMC5883L: little-endian, DRDY cleared by reading the data", .timeLimit(.minutes(5)))
struct QMC5883LTests {
    private static let lsb = QMC5883L.Range.gauss8.microteslaPerLSB

    private static func isWithin(_ measured: Vector3?, _ truth: Vector3, _ tolerance: Double) -> Bool {
        guard let measured else { return false }
        return abs(measured.x - truth.x) <= tolerance && abs(measured.y - truth.y) <= tolerance
            && abs(measured.z - truth.z) <= tolerance
    }

    /// A chip on a simulated bus and a driver whose pauses are recorded, not slept.
    private static func rig() throws -> (SimulatedI2CBus, QMC5883LEmulator, QMC5883L, () -> [Duration]) {
        let bus = SimulatedI2CBus(number: 3)
        let chip = QMC5883LEmulator()
        bus.attach(chip)
        var pauses: [Duration] = []
        let driver = QMC5883L(device: try bus.device(at: 0x0D), pause: { pauses.append($0) })
        return (bus, chip, driver, { pauses })
    }

    @Test("configure: soft reset, interrupt pin off, SET/RESET period 0x01, continuous 100 Hz ±8 G OSR 512")
    func initSequence() throws {
        let (bus, _, driver, pauses) = try Self.rig()
        try driver.configure()
        #expect(bus.transcript.map(\.description) == [
            "write 0xd 0xA <- 0x80", "write 0xd 0xA <- 0x1", "write 0xd 0xB <- 0x1", "write 0xd 0x9 <- 0x19",
        ])
        #expect(pauses() == [QMC5883L.resetWait])
        #expect(QMC5883L.control1Value(oversampling: 0, range: .gauss8, outputDataRate: .hz50, mode: 1) == 0x15)
    }

    @Test("identity: 0xFF at 0x0D")
    func identity() throws {
        let (bus, _, driver, _) = try Self.rig()
        #expect(try driver.hasExpectedIdentity())
        #expect(bus.transcript.map(\.description) == ["read 0xd 0xD: 0xFF"])
    }

    @Test("decoding: little-endian X, Y, Z; 12000 or 3000 counts per gauss")
    func decode() {
        let bytes: RegisterBlock = [0x10, 0x27, 0xF0, 0xD8, 0x00, 0x80]
        #expect(QMC5883L.decodeField(bytes, microteslaPerLSB: 1) == Vector3(10000, -10000, -32768))
        #expect(QMC5883L.Range.gauss2.microteslaPerLSB == 100.0 / 12000)
        #expect(QMC5883L.Range.gauss8.microteslaPerLSB == 100.0 / 3000)
    }

    @Test(
        "the field equals the truth within one count at ±8 G",
        arguments: [
            Vector3(20.1, -3.3, -44.4), Vector3(0, 0, 0), Vector3(-799, 799, 0.02), Vector3(123.456, -0.01, 600),
        ])
    func truth(field: Vector3) throws {
        let (_, chip, driver, _) = try Self.rig()
        try driver.configure()
        chip.setField(field)
        #expect(Self.isWithin(try driver.readMagneticField(), field, Self.lsb))
    }

    @Test("at ±2 G the emulator and the decode agree on 12000 counts per gauss", arguments: [
        Vector3(19.99, -45.5, 0.004), Vector3(-199, 199, -100),
    ])
    func twoGaussRange(field: Vector3) throws {
        let (bus, chip, _, _) = try Self.rig()
        let device = try bus.device(at: 0x0D)
        let control1 = QMC5883L.control1Value(oversampling: 0, range: .gauss2, outputDataRate: .hz100, mode: 1)
        try device.writeRegister(0x09, control1)
        chip.setField(field)
        let bytes = try device.readRegisters(0x00, count: 6)
        let decoded = QMC5883L.decodeField(bytes, microteslaPerLSB: QMC5883L.Range.gauss2.microteslaPerLSB)
        #expect(Self.isWithin(decoded, field, QMC5883L.Range.gauss2.microteslaPerLSB))
    }

    @Test("nil before configuration and before data; reading the data clears DRDY")
    func dataReady() throws {
        let (bus, chip, driver, _) = try Self.rig()
        chip.setField(Vector3(10, 10, 10))  // standby: ignored
        try driver.configure()
        #expect(try driver.readMagneticField() == nil)
        chip.setField(Vector3(30, 0, -30))
        bus.clearTranscript()
        #expect(try driver.readMagneticField() != nil)
        #expect(bus.transcript.map(\.description) == [
            "read 0xd 0x6: 0x1", "read 0xd 0x0: 0x84 0x3 0x0 0x0 0x7C 0xFC",
        ])
        #expect(try driver.readMagneticField() == nil)
    }

    @Test("an out-of-range sample (OVL) is read, to clear DRDY, and dropped; the next in range returns")
    func overflow() throws {
        let (_, chip, driver, _) = try Self.rig()
        try driver.configure()
        chip.setField(Vector3(900, 0, 0))
        #expect(try driver.readMagneticField() == nil)
        chip.setField(Vector3(-50, 0, 0))
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(-50, 0, 0), Self.lsb))
    }

    @Test("an unread sample followed by another sets DOR; the newest is returned")
    func dataSkipped() throws {
        let (bus, chip, driver, _) = try Self.rig()
        try driver.configure()
        chip.setField(Vector3(1, 2, 3))
        chip.setField(Vector3(4, 5, 6))
        bus.clearTranscript()
        #expect(Self.isWithin(try driver.readMagneticField(), Vector3(4, 5, 6), Self.lsb))
        #expect(bus.transcript.first?.bytes == [0x05])
    }

    @Test("the register pointer rolls over from 0x06 to 0x00 only with ROL_PNT")
    func pointerRollOver() throws {
        let (bus, chip, driver, _) = try Self.rig()
        try driver.configure()
        chip.setField(Vector3(1 / 30.0, 0, 0))
        let device = try bus.device(at: 0x0D)
        #expect(try device.readRegisters(0x05, count: 4) == [0, 0, 0, 0], "0x05, status (DRDY cleared), 0x07, 0x08")
        try device.writeRegister(0x0A, 0x40)
        chip.setField(Vector3(1 / 30.0, 0, 0))
        #expect(try device.readRegisters(0x06, count: 3) == [0x01, 0x01, 0x00], "status, then 0x00 and 0x01")
    }

    @Test("a fault surfaces with bus, address, register and errno")
    func faults() throws {
        let (bus, _, driver, _) = try Self.rig()
        try driver.configure()
        bus.injectFaults(at: 0x0D, [EIO])
        let error = #expect(throws: I2CError.self) { try driver.readMagneticField() }
        #expect(error == I2CError(bus: 3, address: 0x0D, register: 0x06, operation: "read 1 byte", errno: EIO))
        bus.injectFaults(at: 0x0D, [ENXIO])
        let configureError = #expect(throws: I2CError.self) { try driver.configure() }
        #expect(configureError?.register == 0x0A && configureError?.errno.rawValue == ENXIO)
    }
}
