@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

private let field = Vector3(20.5, 0.9, 43.6)
private let level = Vector3(0, 0, -1)
private let tolerance = 0.01

/// A BerryGPS-IMU v4 (LIS3MDL at 0x1C, LSM6DSL at 0x6A) and a reader over it.
private struct Bench {
    let rig = IMUTestRig(.berryGPSIMUv4)
    let reader: IMUReader
    let selection = BoardPreset.berryGPSIMUv4.selection

    init(_ settings: IMUReader.Settings = IMUReader.Settings(), start: Bool = true) throws {
        reader = try IMUReader(selection: selection, bus: rig.bus, settings: settings, pause: { _ in })
        if start { try reader.start() }
    }

    func present(_ field: Vector3 = field, _ acceleration: Vector3 = level) {
        rig.present(field: field, acceleration: acceleration, through: selection)
    }
}

private extension IMUReader.Outcome {
    var sample: IMUSample? {
        if case .sample(let sample) = self { return sample }
        return nil
    }

    var fault: IMUReader.Fault? {
        if case .deviceFault(let fault) = self { return fault }
        return nil
    }
}

@Suite("IMUReader: body-frame samples, retries, re-initialisation with backoff", .timeLimit(.minutes(5)))
struct IMUReaderTests {
    @Test("a new reading gives a body-frame sample; no new reading gives noNewSample")
    func samples() throws {
        let bench = try Bench()
        #expect(bench.reader.read() == .noNewSample)
        bench.present()
        let sample = try #require(bench.reader.read().sample)
        expectClose(sample.magneticMicrotesla, field, within: tolerance)
        expectClose(sample.accelerationG, level, within: tolerance)
        expectClose(sample.angularRateDegreesPerSecond, .zero, within: tolerance)
        #expect(bench.reader.read() == .noNewSample)
        #expect(bench.reader.statistics.samples == 1)
    }

    @Test("no sample until both sensors have reported once")
    func waitsForBothSensors() throws {
        let bench = try Bench()
        bench.rig.accelerometer?.setAcceleration(Vector3(0, 0, 1))
        #expect(bench.reader.read() == .noNewSample)
        bench.rig.magnetometer?.setField(Vector3(20, 0, -40))
        let sample = try #require(bench.reader.read().sample)
        expectClose(sample.accelerationG, level, within: tolerance, "the earlier acceleration is kept")
        expectClose(sample.magneticMicrotesla, Vector3(20, 0, 40), within: tolerance)
    }

    @Test("one EIO is retried at once: the sample arrives, the error is counted and kept")
    func retriedOnce() throws {
        let bench = try Bench()
        bench.present()
        bench.rig.bus.injectFaults(at: 0x1C, [EIO])
        #expect(bench.reader.read().sample != nil)
        let statistics = bench.reader.statistics
        #expect(statistics.transferErrors == 1)
        #expect(statistics.recoveredByRetry == 1)
        #expect(statistics.faultedPolls == 0)
        #expect(statistics.lastError?.errno.rawValue == EIO)
        #expect(statistics.lastError?.address == 0x1C)
        #expect(statistics.lastFault == nil)
    }

    @Test("a NAK whose retry fails too is a device fault for that poll only")
    func failedRetry() throws {
        let bench = try Bench()
        bench.present()
        bench.rig.bus.injectFaults(at: 0x6A, [ENXIO, EREMOTEIO])
        let fault = try #require(bench.reader.read().fault)
        guard case .transfer(let error) = fault else {
            Issue.record("expected a transfer fault, got \(fault)")
            return
        }
        #expect(error.errno.rawValue == EREMOTEIO)
        #expect(error.address == 0x6A)
        #expect(bench.reader.statistics.transferErrors == 2)
        #expect(bench.reader.statistics.consecutiveFailures == 1)
        #expect(bench.reader.statistics.lastFault == fault)
        // The data that was waiting is still there on the next poll.
        #expect(bench.reader.read().sample != nil)
        #expect(bench.reader.statistics.consecutiveFailures == 0)
        #expect(bench.reader.statistics.reinitialisations == 0)
    }

    @Test("five failed polls in a row re-initialise the devices, accelerometer first, then samples resume")
    func reinitialisesAfterFiveFailures() throws {
        let bench = try Bench()
        bench.rig.bus.injectFaults(at: 0x1C, [Int32](repeating: EIO, count: 10))
        for poll in 1...5 {
            #expect(bench.reader.read().fault != nil, "poll \(poll)")
        }
        #expect(bench.reader.statistics.consecutiveFailures == 5)
        #expect(bench.reader.statistics.reinitialisations == 0)
        bench.rig.bus.clearTranscript()
        #expect(bench.reader.read() == .noNewSample)
        #expect(bench.reader.statistics.reinitialisations == 1)
        #expect(bench.reader.statistics.consecutiveFailures == 0)
        let writes = bench.rig.bus.transcript.filter { $0.kind == .write }
        #expect(writes.first?.address == 0x6A)
        #expect(writes.last?.address == 0x1C)
        bench.present()
        #expect(bench.reader.read().sample != nil)
        #expect(bench.reader.statistics.transferErrors == 10)
    }

    @Test("while the fault lasts, attempts wait 3, 6, 12, 12 polls, and the bus is left alone in between")
    func exponentialBackoff() throws {
        let settings = IMUReader.Settings(
            failuresBeforeReinitialisation: 2, initialBackoffPolls: 3, maximumBackoffPolls: 12, stallPolls: 0)
        let bench = try Bench(settings)
        bench.rig.bus.injectFaults(at: 0x1C, [Int32](repeating: EIO, count: 1000))
        var attemptPolls: [Int] = []
        for poll in 1...40 {
            bench.rig.bus.clearTranscript()
            let attemptsBefore = bench.reader.statistics.reinitialisations
            let outcome = bench.reader.read()
            #expect(outcome.fault != nil, "poll \(poll)")
            if bench.reader.statistics.reinitialisations > attemptsBefore {
                attemptPolls.append(poll)
                // The accelerometer is configured before the magnetometer fails.
                #expect(!bench.rig.bus.writes(to: 0x6A).isEmpty)
            } else if poll > 2 {
                #expect(bench.rig.bus.transcript.isEmpty, "poll \(poll) waits without touching the bus")
                #expect(bench.reader.isRecovering)
            }
        }
        #expect(attemptPolls == [3, 7, 14, 27, 40])
        #expect(bench.reader.statistics.faultedPolls == 40)
        #expect(bench.reader.statistics.samples == 0)
    }

    @Test("once the fault clears, the next attempt brings samples back and the counters tell the story")
    func recovery() throws {
        let settings = IMUReader.Settings(
            failuresBeforeReinitialisation: 2, initialBackoffPolls: 3, maximumBackoffPolls: 12, stallPolls: 0)
        let bench = try Bench(settings)
        // Two failed polls (four transfers), then one failed configuration (two): six errors.
        bench.rig.bus.injectFaults(at: 0x1C, [Int32](repeating: EIO, count: 6))
        var outcomes: [IMUReader.Outcome] = []
        for _ in 1...7 { outcomes.append(bench.reader.read()) }
        #expect(outcomes.dropLast().allSatisfy { $0.fault != nil })
        #expect(outcomes.last == .noNewSample)
        bench.present()
        #expect(bench.reader.read().sample != nil)
        let statistics = bench.reader.statistics
        #expect(statistics.reinitialisations == 2)
        #expect(statistics.transferErrors == 6)
        #expect(statistics.recoveredByRetry == 0)
        #expect(statistics.faultedPolls == 6)
        #expect(statistics.consecutiveFailures == 0)
        #expect(statistics.samples == 1)
        #expect(!bench.reader.isRecovering)
    }

    @Test("a chip that browns out into power-down is noticed by its silence and configured again")
    func stalledChip() throws {
        let settings = IMUReader.Settings(failuresBeforeReinitialisation: 2, stallPolls: 3)
        let bench = try Bench(settings)
        bench.present()
        #expect(bench.reader.read().sample != nil)
        // CTRL_REG3 MD = 11: the LIS3MDL's reset state, power-down.
        bench.rig.magnetometer?.write(register: 0x22, value: 0x03)
        bench.present(Vector3(1, 2, 3))
        #expect(bench.reader.read().sample?.magneticMicrotesla != Vector3(1, 2, 3))
        bench.present(Vector3(1, 2, 3))
        #expect(bench.reader.read().sample != nil)
        bench.present(Vector3(1, 2, 3))
        #expect(bench.reader.read() == .deviceFault(.noData(.magnetometer, polls: 3)))
        bench.present(Vector3(1, 2, 3))
        #expect(bench.reader.read() == .deviceFault(.noData(.magnetometer, polls: 4)))
        // Two failures: the next poll configures both chips again.
        #expect(bench.reader.read() == .noNewSample)
        #expect(bench.reader.statistics.reinitialisations == 1)
        bench.present(Vector3(1, 2, 3))
        let sample = try #require(bench.reader.read().sample)
        expectClose(sample.magneticMicrotesla, Vector3(1, 2, 3), within: tolerance)
    }

    @Test("start() reports a missing chip at once with the second attempt's error")
    func startFailure() throws {
        let reader = try IMUReader(
            selection: BoardPreset.berryGPSIMUv4.selection, bus: SimulatedI2CBus(), pause: { _ in })
        let error = #expect(throws: I2CError.self) { try reader.start() }
        #expect(error?.errno.rawValue == ENXIO)
        #expect(error?.address == 0x6A, "the accelerometer is configured first")
        #expect(reader.statistics.transferErrors == 2)
        #expect(reader.statistics.lastFault == error.map { .transfer($0) })
    }

    @Test("without start(), the first read configures the devices")
    func configuresOnFirstRead() throws {
        let bench = try Bench(start: false)
        #expect(bench.rig.bus.transcript.isEmpty)
        #expect(bench.reader.read() == .noNewSample)
        #expect(!bench.rig.bus.writes(to: 0x6A).isEmpty && !bench.rig.bus.writes(to: 0x1C).isEmpty)
        #expect(bench.reader.statistics.reinitialisations == 0)
        bench.present()
        #expect(bench.reader.read().sample != nil)
    }

    @Test("an ICM-20948 is configured again before its AK09916, which is reachable only after that")
    func icm20948BeforeAK09916() throws {
        let preset = BoardPreset.waveshareSenseHATB
        let rig = IMUTestRig(preset)
        let reader = try IMUReader(
            selection: preset.selection, bus: rig.bus,
            settings: IMUReader.Settings(failuresBeforeReinitialisation: 2), pause: { _ in })
        try reader.start()
        rig.bus.injectFaults(at: 0x0C, [EIO, EIO, EIO, EIO])
        #expect(reader.read().fault != nil)
        #expect(reader.read().fault != nil)
        rig.bus.clearTranscript()
        _ = reader.read()
        #expect(reader.statistics.reinitialisations == 1)
        let writes = rig.bus.transcript.filter { $0.kind == .write }.map(\.address)
        #expect(writes.first == 0x68)
        #expect(writes.last == 0x0C)
        #expect(writes.lastIndex(of: 0x68)! < writes.firstIndex(of: 0x0C)!)
        rig.present(field: field, acceleration: level, angularRate: Vector3(0, 0, 30), through: preset.selection)
        let sample = try #require(reader.read().sample)
        expectClose(sample.magneticMicrotesla, field, within: 0.15)
        expectClose(sample.angularRateDegreesPerSecond, Vector3(0, 0, 30), within: 0.02)
    }
}
