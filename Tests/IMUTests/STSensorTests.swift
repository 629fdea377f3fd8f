@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

/// What every ST driver must do on its emulator, run over the table in `STSensorCase`; what
/// only one chip has is in that chip's own `ST<chip>Tests`.
@Suite("ST sensors on their register emulators", .timeLimit(.minutes(5)))
struct STSensorTests {
    /// Flat and face up (+1 g on z at ±4 g), then fractions of full scale as in `truths`.
    static let fractionsOfFullScale = [Vector3(0, 0, 0.25)] + truths(fullScale: 1)
    /// One count of angular rate at the configured ±500 °/s, on every ST gyroscope here.
    static let rateLSB = Vector3(17.5e-3, 17.5e-3, 17.5e-3)

    @Test("configure writes the chip's init sequence, in order", arguments: STSensorCase.all)
    func initSequence(chip: STSensorCase) throws {
        let rig = try chip.rig()
        try rig.driver.configure()
        #expect(rig.bus.writes(to: chip.address) == chip.initWrites)
        #expect(rig.hasGyroscope == chip.hasGyroscope)
    }

    @Test(
        "the decoded sample is the emulator's truth within one LSB",
        arguments: STSensorCase.all, fractionsOfFullScale)
    func roundTrip(chip: STSensorCase, fractionOfFullScale: Vector3) throws {
        let rig = try chip.rig()
        let truth = fractionOfFullScale * chip.fullScale
        try rig.driver.configure()
        rig.setSample(truth)
        expectWithinOneLSB(try rig.readSample(), truth, lsb: chip.lsb)
    }

    @Test(
        "no sample before configuration or before new data; each sample is reported once",
        arguments: STSensorCase.all)
    func dataReady(chip: STSensorCase) throws {
        let rig = try chip.rig()
        let sample = chip.ordinarySample
        rig.setSample(sample)
        #expect(try rig.readSample() == nil, "power-down, idle or sleep after reset")
        for span in chip.quiet {
            let bytes = rig.emulator.read(register: span.register, count: span.count)
            #expect(bytes.allSatisfy { $0 == 0 }, "status and output stay zero")
        }
        try rig.driver.configure()
        #expect(try rig.readSample() == nil, "configured, but no new sample yet")
        rig.setSample(sample)
        #expect(try rig.readSample() != nil)
        #expect(try rig.readSample() == nil, "reading the output cleared the data-ready bits")
    }

    @Test("a bus fault surfaces as an I2CError with bus, address, register and errno", arguments: STSensorCase.all)
    func fault(chip: STSensorCase) throws {
        let rig = try chip.rig()
        rig.bus.injectFaults(at: chip.address, [EREMOTEIO])
        expectI2CError(address: chip.address, register: chip.initWrites[0].register, errno: EREMOTEIO) {
            () throws(I2CError) in try rig.driver.configure()
        }
        try rig.driver.configure()
        rig.setSample(chip.ordinarySample)
        rig.bus.injectFaults(at: chip.address, [EIO])
        expectI2CError(address: chip.address, register: chip.status, errno: EIO) { () throws(I2CError) in
            try rig.readSample()
        }
        #expect(try rig.readSample() != nil, "the fault was transient; the sample is still there")
    }

    @Test(
        "a burst reads the output as the part auto-increments; the driver reads status, then the block at once",
        arguments: STSensorCase.all)
    func autoIncrement(chip: STSensorCase) throws {
        let rig = try chip.rig()
        try rig.driver.configure()
        let truth = chip.distinctSample
        rig.setSample(truth)
        expectBurst(chip.burst, on: rig.emulator, at: chip.output & 0x7F)
        rig.setSample(truth)
        rig.bus.clearTranscript()
        expectWithinOneLSB(try rig.readSample(), truth, lsb: chip.lsb)
        #expect(rig.bus.registersRead(from: chip.address) == [chip.status, chip.output])
    }

    @Test("the identity register reads the chip's identity", arguments: STSensorCase.all)
    func identity(chip: STSensorCase) throws {
        let rig = try chip.rig()
        #expect(try rig.driver.hasExpectedIdentity())
        #expect(rig.emulator.read(register: chip.identityRegister, count: 1) == [chip.identity])
    }

    @Test(
        "dies that share an identity: each driver accepts the other (LIS3MDL and LSM9DS1 magnetometer, the LSM303 accelerometers)",
        arguments: STSensorCase.all.filter { $0.identityTwin != nil })
    func identityClash(chip: STSensorCase) throws {
        let twin = try #require(chip.identityTwin)
        let other = SimulatedI2CBus()
        other.attach(twin())
        #expect(try chip.makeDriver(other.device(at: chip.address)).hasExpectedIdentity(), "the identities clash")
    }

    @Test("decoded rate is the truth within one LSB", arguments: STSensorCase.gyroscopes, truths(fullScale: 500))
    func rateRoundTrip(chip: STSensorCase, truth: Vector3) throws {
        let rig = try chip.rig()
        let setRate = try #require(rig.setRate), readRate = try #require(rig.readRate)
        try rig.driver.configure()
        setRate(truth)
        expectWithinOneLSB(try readRate(), truth, lsb: Self.rateLSB)
    }

    @Test(
        "accelerometer and gyroscope announce their own samples; without a gyroscope there is no rate",
        arguments: STSensorCase.accelerometers)
    func rateDataReady(chip: STSensorCase) throws {
        let rig = try chip.rig()
        let setRate = try #require(rig.setRate), readRate = try #require(rig.readRate)
        setRate(Vector3(1, 2, 3))
        #expect(try readRate() == nil, "power-down after reset")
        try rig.driver.configure()
        #expect(try readRate() == nil)
        rig.setSample(Vector3(0, 0, 1))
        #expect(try readRate() == nil, "a new force does not announce a rate")
        #expect(try rig.readSample() != nil)
        setRate(Vector3(1, 2, 3))
        if chip.hasGyroscope {
            #expect(try rig.readSample() == nil, "a new rate does not announce a force")
            #expect(try readRate() != nil)
        }
        #expect(try readRate() == nil)
    }

    @Test("a bus fault on a rate read surfaces as an I2CError", arguments: STSensorCase.gyroscopes)
    func rateFault(chip: STSensorCase) throws {
        let rig = try chip.rig()
        let setRate = try #require(rig.setRate), readRate = try #require(rig.readRate)
        try rig.driver.configure()
        setRate(Vector3(1, 2, 3))
        rig.bus.injectFaults(at: chip.address, [EIO])
        expectI2CError(address: chip.address, register: chip.status, errno: EIO) { () throws(I2CError) in
            try readRate()
        }
        #expect(try readRate() != nil, "the fault was transient; the sample is still there")
    }

    @Test("decoding is little-endian X, Y, Z, all 16 bits significant, on every ST chip but two")
    func littleEndianDecode() {
        let bytes: RegisterBlock = [0x00, 0x80, 0xFF, 0x7F, 0x01, 0x00]
        let expected = Vector3(-32768, 32767, 1)
        #expect(LIS3MDL.decodeField(bytes, microteslaPerLSB: 1) == expected)
        #expect(LSM9DS1Magnetometer.decodeField(bytes, microteslaPerLSB: 1) == expected)
        #expect(LSM303AGRMagnetometer.decodeField(bytes, microteslaPerLSB: 1) == expected)
        #expect(LSM303D.decodeField(bytes, microteslaPerLSB: 1) == expected)
        #expect(LSM303D.decodeAcceleration(bytes, gPerLSB: 1) == expected)
        let family: [LSM6DSFamily.Type] = [
            LSM6DS33.self, LSM6DSL.self, LSM6DSOX.self, LSM9DS1AccelerometerGyroscope.self,
        ]
        for chip in family {
            #expect(chip.decodeAcceleration(bytes, gPerLSB: 1) == expected)
            #expect(chip.decodeAngularRate(bytes, degreesPerSecondPerLSB: 1) == expected)
        }
    }

    @Test("LSM303 accelerometer output is 12 bits left-justified: the decoder shifts right by 4, keeping the sign")
    func leftJustifiedDecode() {
        let positive = LSM303AGRAccelerometer.decodeAcceleration([0x00, 0x80, 0xF0, 0x7F, 0x10, 0x00], gPerLSB: 1)
        #expect(positive == Vector3(-2048, 2047, 1))
        let negative = LSM303DLHCAccelerometer.decodeAcceleration([0x00, 0x80, 0xF0, 0x7F, 0xF0, 0xFF], gPerLSB: 1)
        #expect(negative == Vector3(-2048, 2047, -1))
    }

    @Test(
        "the LSM303 accelerometer emulators leave the low nibble of each axis unused",
        arguments: [STSensorCase.lsm303agrAccelerometer, .lsm303dlhcAccelerometer])
    func leftJustifiedOutput(chip: STSensorCase) throws {
        let rig = try chip.rig()
        try rig.driver.configure()
        rig.setSample(Vector3(0.3, -0.7, 1))
        let bytes = rig.emulator.read(register: 0xA8, count: 6)
        #expect([bytes[0], bytes[2], bytes[4]].allSatisfy { $0 & 0x0F == 0 }, "the low nibble is unused")
    }
}
