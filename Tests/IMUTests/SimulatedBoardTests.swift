import Heading
import IMU
import Simulation
import Testing

/// Earth's field in Paris, NED, µT (about WMM2025 there).
private let parisField = Vector3(21.0, 0.5, 42.5)
/// Read-back may differ from the truth by this many counts: one for rounding to a count, one
/// for the conversion back.
private let countsTolerance = 2.0

/// Noise-free physics, so the read-back can be compared to the truth to the count.
private func quietPhysics() -> SensorPhysics {
    var physics = SensorPhysics(earthFieldMicrotesla: parisField, seed: 7)
    physics.magnetometerNoiseMicrotesla = 0
    physics.accelerometerNoiseG = 0
    physics.gyroscopeNoiseDegreesPerSecond = 0
    return physics
}

/// A reader over the board's bus, configured, as the daemon makes one after detection.
private func reader(on board: SimulatedBoard) throws -> IMUReader {
    let reader = try IMUReader(selection: board.selection, bus: board.bus, pause: { _ in })
    try reader.start()
    return reader
}

/// Attitudes a wearer takes: level, turned, tilted either way, walking sway.
private let attitudes = [
    Attitude(yawDegrees: 0), Attitude(yawDegrees: 90, pitchDegrees: 10),
    Attitude(yawDegrees: 217, pitchDegrees: -25, rollDegrees: 15), Attitude(yawDegrees: 333, rollDegrees: -40),
]

@Suite("SimulatedBoard: every preset, which the real detector and reader see through", .timeLimit(.minutes(5)))
struct SimulatedBoardTests {
    @Test("the default board is the BerryGPS-IMU v4: a LIS3MDL at 0x1C and an LSM6DSL at 0x6A")
    func defaultBoard() throws {
        let board = SimulatedBoard(physics: quietPhysics())
        #expect(board.preset == .berryGPSIMUv4)
        let result = IMUDetector(bus: board.bus, pause: { _ in }).detect()
        #expect(result.matchingPresets == [BoardPreset.berryGPSIMUv4])
        let selection = try #require(result.selection)
        #expect(selection.magnetometer.chip == .lis3mdl)
        #expect(selection.magnetometer.address == 0x1C)
        #expect(selection.accelerometer.chip == .lsm6dsl)
        #expect(selection.accelerometer.address == 0x6A)
    }

    @Test("the detector on a board's bus finds the preset's chips at its addresses", arguments: BoardPreset.all)
    func detection(preset: BoardPreset) throws {
        let board = SimulatedBoard(preset: preset, physics: quietPhysics())
        let result = IMUDetector(bus: board.bus, pause: { _ in }).detect()
        // Boards with the same chips at the same addresses (BerryGPS-IMU v3 and the Sense HAT)
        // are told apart by their other chips, which the simulated board does not carry.
        #expect(result.matchingPresets.contains(preset), "\(result.report)")
        let selection = try #require(result.selection, "\(result.report)")
        #expect(selection.magnetometer.chip == preset.magnetometer.chip)
        #expect(selection.magnetometer.address == preset.magnetometer.address)
        #expect(selection.accelerometer.chip == preset.accelerometer.chip)
        #expect(selection.accelerometer.address == preset.accelerometer.address)
    }

    @Test(
        "the reader returns the body-frame physics truth to within a couple of counts, on every board",
        arguments: BoardPreset.all, attitudes)
    func readsBodyFrameTruth(preset: BoardPreset, attitude: Attitude) throws {
        let board = SimulatedBoard(preset: preset, physics: quietPhysics())
        let reader = try reader(on: board)
        let linear = Vector3(0.1, -0.05, 0.2)
        let rates = Vector3(12, -30, 45)
        board.update(attitude: attitude, linearAccelerationG: linear, bodyRatesDegreesPerSecond: rates)
        guard case .sample(let sample) = reader.read() else {
            Issue.record("no sample from \(preset.name)")
            return
        }
        // The truth computed here from the attitude alone, not from what the board pushed.
        expectClose(
            sample.magneticMicrotesla, attitude.toBody(parisField),
            within: countsTolerance * ChipResolution.magnetometer(preset.magnetometer.chip))
        expectClose(
            sample.accelerationG, attitude.specificForce(linearAccelerationG: linear),
            within: countsTolerance * ChipResolution.accelerometer(preset.accelerometer.chip))
        if preset.accelerometer.chip.hasGyroscope {
            expectClose(
                sample.angularRateDegreesPerSecond, rates,
                within: countsTolerance * ChipResolution.gyroscope(preset.accelerometer.chip))
        } else {
            #expect(sample.angularRateDegreesPerSecond == nil, "\(preset.name) has no gyroscope")
        }
    }

    @Test("hard and soft iron show in the raw field, so calibration has something to remove")
    func ironShows() throws {
        let hardIron = Vector3(35, -12, 8)
        let softIron = Matrix3(Vector3(1.1, 0.05, 0), Vector3(0.05, 0.9, 0.02), Vector3(0, 0.02, 1.0))
        let board = SimulatedBoard(physics: quietPhysics(), hardIronMicrotesla: hardIron, softIron: softIron)
        let reader = try reader(on: board)
        let attitude = Attitude(yawDegrees: 123, pitchDegrees: 5, rollDegrees: -8)
        let pushed = board.update(attitude: attitude)
        guard case .sample(let sample) = reader.read() else {
            Issue.record("no sample")
            return
        }
        let expected = softIron * attitude.toBody(parisField) + hardIron
        let tolerance = countsTolerance * ChipResolution.magnetometer(.lis3mdl)
        expectClose(sample.magneticMicrotesla, expected, within: tolerance)
        expectClose(pushed.magneticMicrotesla, expected, within: 1e-9)
        #expect((sample.magneticMicrotesla - attitude.toBody(parisField)).length > 30)
    }

    @Test("with noise on, readings scatter about the truth at the physics' noise level")
    func noise() throws {
        var physics = quietPhysics()
        physics.magnetometerNoiseMicrotesla = 0.3
        let board = SimulatedBoard(physics: physics)
        let reader = try reader(on: board)
        let attitude = Attitude(yawDegrees: 45)
        let truth = attitude.toBody(parisField)
        let count = 400
        var sumOfSquares = 0.0
        for _ in 0..<count {
            board.update(attitude: attitude)
            guard case .sample(let sample) = reader.read() else {
                Issue.record("no sample")
                return
            }
            let error = sample.magneticMicrotesla - truth
            sumOfSquares += error.dot(error)
        }
        let perAxisRMS = (sumOfSquares / Double(3 * count)).squareRoot()
        #expect(abs(perAxisRMS - 0.3) < 0.05, "per-axis RMS \(perAxisRMS) µT")
    }
}
