@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

/// A BerryGPS-IMU v4 (LIS3MDL at 0x1C, LSM6DSL at 0x6A, whose FIFO the bursts read) and a
/// reader over it.
private struct BurstBench {
    let rig = IMUTestRig(.berryGPSIMUv4)
    let reader: IMUReader
    let selection = BoardPreset.berryGPSIMUv4.selection
    var burst = IMUBurst()

    init(_ settings: IMUReader.Settings = IMUReader.Settings()) throws {
        reader = try IMUReader(selection: selection, bus: rig.bus, settings: settings, pause: { _ in })
        try reader.start()
    }

    /// A sample the chips make: each distinct, so order and pairing show.
    func present(_ index: Int, field: Vector3) {
        rig.present(
            field: field, acceleration: Self.acceleration(index), angularRate: Self.angularRate(index),
            through: selection)
    }

    static func acceleration(_ index: Int) -> Vector3 { Vector3(0.01 * Double(index), -0.02 * Double(index), -1) }
    static func angularRate(_ index: Int) -> Vector3 { Vector3(1, -2, 3 * Double(index)) }

    mutating func read(polls: Int = 5) -> IMUReader.Outcome { reader.readBurst(into: &burst, polls: polls) }

    /// FIFO_CTRL5 as the chip holds it.
    var fifoControl5: UInt8 { rig.accelerometer!.read(register: 0x0A, count: 1)[0] }
}

private let fieldA = Vector3(20.5, 0.9, 43.6)
private let fieldB = Vector3(-3, 18, 40)
private let tolerance = 0.01

@Suite("IMUReader bursts: the LSM6DSL's FIFO, read ten times a second", .timeLimit(.minutes(5)))
struct IMUReaderBurstTests {
    @Test("every queued sample comes back in order, body frame, each with the field nearest in time")
    func samplesInOrder() throws {
        var bench = try BurstBench()
        #expect(bench.reader.fifoRateHertz == 52)
        #expect(bench.read() == .noNewSample, "nothing made yet: the FIFO starts empty, the output registers too")
        #expect(bench.fifoControl5 == 0x1E, "continuous mode at 52 Hz")
        // The first data set after the FIFO starts is discarded, as the datasheets ask.
        for index in 0...4 { bench.present(index, field: fieldA) }
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 4)
        for position in 0..<4 {
            let sample = bench.burst[position]
            expectClose(sample.accelerationG, BurstBench.acceleration(position + 1), within: tolerance)
            expectClose(sample.angularRateDegreesPerSecond, BurstBench.angularRate(position + 1), within: tolerance)
            expectClose(sample.magneticMicrotesla, fieldA, within: tolerance)
        }
        for index in 5...10 { bench.present(index, field: fieldB) }
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 6)
        for position in 0..<6 {
            let sample = bench.burst[position]
            expectClose(sample.accelerationG, BurstBench.acceleration(position + 5), within: tolerance)
            // Read once a burst: the older half takes the previous burst's field.
            expectClose(sample.magneticMicrotesla, position < 3 ? fieldA : fieldB, within: tolerance)
        }
        #expect(bench.reader.statistics.samples == 10)
        #expect(bench.reader.statistics.fifoRestarts == 0)
    }

    @Test("the burst that starts the FIFO takes the sample in the output registers, so none is late")
    func firstBurst() throws {
        var bench = try BurstBench()
        bench.present(7, field: fieldB)
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 1)
        expectClose(bench.burst[0].accelerationG, BurstBench.acceleration(7), within: tolerance)
        expectClose(bench.burst[0].magneticMicrotesla, fieldB, within: tolerance)
        #expect(bench.fifoControl5 == 0x1E, "and the FIFO runs")
    }

    @Test("more than a batch holds: the FIFO is emptied and restarted, and the count says samples were lost")
    func overfull() throws {
        var bench = try BurstBench()
        _ = bench.read()
        for index in 0..<(FIFOBatch.capacity + 2) { bench.present(index, field: fieldA) }
        #expect(bench.read() == .noNewSample)
        #expect(bench.reader.statistics.fifoRestarts == 1)
        for index in 0...3 { bench.present(100 + index, field: fieldA) }
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 3, "only what came after the restart, its first data set discarded")
        expectClose(bench.burst[0].accelerationG, BurstBench.acceleration(101), within: tolerance)
    }

    @Test("an overrun (the FIFO filled) empties and restarts it")
    func overrun() throws {
        var bench = try BurstBench()
        _ = bench.read()
        // 2048 words are 341 data sets.
        for index in 0..<400 { bench.present(index, field: fieldA) }
        #expect(bench.read() == .noNewSample)
        #expect(bench.reader.statistics.fifoRestarts == 1)
        for index in 0...2 { bench.present(index, field: fieldA) }
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 2)
    }

    @Test("a FIFO out of step (a read stopped mid data set) is restarted instead of read shifted")
    func outOfStep() throws {
        var bench = try BurstBench()
        _ = bench.read()
        for index in 0...3 { bench.present(index, field: fieldA) }
        // One word taken behind the reader's back: the next word is gyroscope y, not x.
        _ = bench.rig.accelerometer!.read(register: 0x3E, count: 2)
        #expect(bench.read() == .noNewSample)
        #expect(bench.reader.statistics.fifoRestarts == 1)
    }

    @Test("a single read stops the FIFO, and the next burst starts it again")
    func switching() throws {
        var bench = try BurstBench()
        _ = bench.read()
        #expect(bench.fifoControl5 == 0x1E)
        bench.present(1, field: fieldA)
        #expect(bench.reader.read() != .noNewSample)
        #expect(bench.fifoControl5 == 0, "bypass")
        #expect(bench.read() == .noNewSample)
        #expect(bench.fifoControl5 == 0x1E)
    }

    @Test("bursts without data sets count as the polls they stand for, and stall the accelerometer in time")
    func stall() throws {
        var bench = try BurstBench(IMUReader.Settings(stallPolls: 10))
        bench.present(0, field: fieldA)
        #expect(bench.read() != .noNewSample, "the output registers' sample")
        bench.rig.magnetometer?.setField(fieldA)
        #expect(bench.read(polls: 5) == .noNewSample)
        bench.rig.magnetometer?.setField(fieldA)
        #expect(bench.read(polls: 5) == .deviceFault(.noData(.accelerometer, polls: 10)))
    }

    @Test("a failed FIFO read is retried; a second failure is a fault for that burst")
    func transferErrors() throws {
        var bench = try BurstBench()
        _ = bench.read()
        for index in 0...3 { bench.present(index, field: fieldA) }
        bench.rig.bus.injectFaults(at: 0x6A, [EIO])
        #expect(bench.read() != .noNewSample)
        #expect(bench.burst.count == 3)
        #expect(bench.reader.statistics.recoveredByRetry == 1)
        bench.rig.bus.injectFaults(at: 0x6A, [EIO, EIO])
        guard case .deviceFault(.transfer(let error)) = bench.read() else {
            Issue.record("two failures in a row should be a fault")
            return
        }
        #expect(error.address == 0x6A)
    }
}
