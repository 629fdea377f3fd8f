import Foundation
import Simulation
import Testing
import TestSupport

@testable import Heading

@Suite("The heading pipeline on simulated motion", .timeLimit(.minutes(5)))
struct HeadingEstimatorTests {
    static let rate = 50.0
    static let dt = 1 / rate

    /// The peak turn rate of the simulated turns, °/s: the requirement's "up to 30°/s".
    static let peakTurnRate = 30.0

    /// Attitudes held for 4 s each, anywhere within ±40° of level, joined by smooth turns at
    /// up to 30°/s during which roll and pitch move to the next attitude too.
    static func attitude(_ t: Double) -> (attitude: Attitude, turnRate: Double) {
        func hold(_ k: Int) -> Attitude {
            var generator = SeededGenerator(seed: UInt64(k) &* 7919 &+ 13)
            return Attitude(
                yawDegrees: Double(k) * 47.0 + Double.random(in: -13...13, using: &generator),
                pitchDegrees: Double.random(in: -40...40, using: &generator),
                rollDegrees: Double.random(in: -40...40, using: &generator))
        }
        // Smoothstep turns: the rate starts and ends at zero and peaks at 1.5 × change / duration,
        // so each turn takes as long as keeps that peak at 30°/s (at least 1 s).
        func turnSeconds(_ k: Int) -> Double {
            max(1, 1.5 * abs(hold(k + 1).yawDegrees - hold(k).yawDegrees) / peakTurnRate)
        }
        var k = 0
        var start = 0.0
        while t >= start + 4 + turnSeconds(k) {
            start += 4 + turnSeconds(k)
            k += 1
        }
        let phase = t - start
        let from = hold(k)
        guard phase >= 4 else { return (from, 0) }
        let to = hold(k + 1)
        let duration = turnSeconds(k)
        let x = (phase - 4) / duration
        let s = x * x * (3 - 2 * x)
        let ds = 6 * x * (1 - x) / duration
        let yawChange = to.yawDegrees - from.yawDegrees
        return (
            Attitude(
                yawDegrees: from.yawDegrees + yawChange * s,
                pitchDegrees: from.pitchDegrees + (to.pitchDegrees - from.pitchDegrees) * s,
                rollDegrees: from.rollDegrees + (to.rollDegrees - from.rollDegrees) * s),
            yawChange * ds)
    }

    /// One sample as the daemon makes it: `read(t, seconds)` gives the chips' reading at `t`,
    /// `seconds` after the previous read, for each read of the period ending at `t`.
    static func daemonSample(endingAt t: Double, gyroscope: Bool, _ read: (Double, Double) -> IMUSample) -> IMUSample {
        var average = IMUSampleAverage()
        // As the daemon samples: `reads` reads per sample period, averaged.
        let reads = IMUSampleAverage.readsPerSample(hasGyroscope: gyroscope, sampleRateHertz: rate)
        let step = dt / Double(reads)
        for k in (0..<reads).reversed() { average.add(read(t - Double(k) * step, step)) }
        return average.take()!
    }

    /// The field as the daemon pairs it with the samples of an accelerometer's FIFO
    /// (`IMUReader.readBurst`): read once per burst of five samples, the older two of a burst's
    /// samples taking the previous burst's reading, the newer three this one's.
    struct BurstField {
        static let samplesPerBurst = 5
        private var readings: [Int: Vector3] = [:]

        /// The field paired with sample `index`; `read(k)` reads the magnetometer at sample k's time.
        mutating func field(forSample index: Int, read: (Int) -> Vector3) -> Vector3 {
            let burst = index / Self.samplesPerBurst
            let older = index % Self.samplesPerBurst < Self.samplesPerBurst / 2
            let readIndex = max(0, (older ? burst : burst + 1) * Self.samplesPerBurst - 1)
            if let field = readings[readIndex] { return field }
            let field = read(readIndex)
            readings[readIndex] = field
            return field
        }
    }

    /// The cases the no-linear-acceleration requirement is checked on: inclinations 0° to 75°,
    /// without a gyroscope, with one read every period, and with one in a FIFO read in bursts
    /// (the magnetometer read once a burst), each with several noise seeds. The margin is thinnest
    /// without a gyroscope at 75°, where the largest error comes at the end of a turn: over 20
    /// seeds RMS ≤ 0.28° and max ≤ 1.62° (1.72° with the magnetometer's noise scaled to its 80 Hz
    /// rate); one read per sample gave max 2.58° and exceeded 2° for 6 of the 20.
    static let tiltCases: [(inclination: Double, gyroscope: Bool, bursts: Bool)] = [0.0, 25, 50, 65, 70, 75].flatMap {
        [($0, false, false), ($0, true, false), ($0, true, true)]
    }
    static let noiseSeeds: [UInt64] = [1, 4, 6]

    @Test("no linear acceleration, tilted up to ±40°, turning: RMS ≤ 0.5°, max ≤ 2° where the turn rate is under 5°/s",
          arguments: tiltCases)
    func tiltedTurning(inclination: Double, gyroscope: Bool, bursts: Bool) {
        for seed in Self.noiseSeeds {
            var burstField = BurstField()
            var physics = SensorPhysics(
                earthFieldMicrotesla: earthField(microtesla: 48, inclinationDegrees: inclination), seed: seed)
            let reference = HeadingEstimator.ModelField(
                declinationDegrees: 2.5, totalIntensityMicrotesla: 48, inclinationDegrees: inclination)
            var estimator = HeadingEstimator(calibration: .identity)
            var errors: [Double] = []
            var previous = Self.attitude(-Self.dt).attitude
            var peak = 0.0
            for i in 0..<Int(60 * Self.rate) {
                let t = Double(i) * Self.dt
                let (attitude, turnRate) = Self.attitude(t)
                peak = max(peak, abs(turnRate))
                var sample = Self.daemonSample(endingAt: t, gyroscope: gyroscope) { at, seconds in
                    let read = Self.attitude(at).attitude
                    defer { previous = read }
                    let rates = gyroscope ? previous.bodyRates(to: read, seconds: seconds) : nil
                    return physics.sample(read, bodyRatesDegreesPerSecond: rates)
                }
                if bursts {
                    sample.magneticMicrotesla = burstField.field(forSample: i) { k in
                        physics.sample(Self.attitude(Double(k) * Self.dt).attitude).magneticMicrotesla
                    }
                }
                let estimate = estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: reference)
                guard t > 2, abs(turnRate) < 5, let heading = estimate.trueDegrees else { continue }
                #expect(estimate.isReliable)
                errors.append(headingError(heading, attitude.yawDegrees + 2.5))
            }
            let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
            let worst = errors.map(abs).max() ?? .infinity
            let context = "inclination \(inclination)°, gyroscope \(gyroscope), bursts \(bursts), seed \(seed)"
            #expect(errors.count > 1000)
            #expect(peak > 25 && peak <= Self.peakTurnRate + 1e-9, "turns reach but do not exceed 30°/s: \(peak)")
            #expect(rms <= 0.5, "\(context): RMS \(rms)°")
            #expect(worst <= 2, "\(context): max \(worst)°")
        }
    }

    @Test("when the gyroscope drops out, the tracker carries on from the heading it left, without a jump")
    func gyroscopeDropsOut() throws {
        var physics = SensorPhysics(earthFieldMicrotesla: earthField(microtesla: 48, inclinationDegrees: 65), seed: 5)
        let reference = HeadingEstimator.ModelField(declinationDegrees: 0, totalIntensityMicrotesla: 48, inclinationDegrees: 65)
        var estimator = HeadingEstimator(calibration: .identity)
        // With the gyroscope the wearer turns from 30° to 123° in the first 4 s, so a tracker
        // left where the gyroscope took over would be 93° off when it drops out at 5 s.
        func attitude(_ t: Double) -> Attitude {
            Attitude(yawDegrees: 30 + 93 * min(1, t / 4), pitchDegrees: 10, rollDegrees: -5)
        }
        var lastWithGyroscope: Double?
        var firstWithout: Double?
        var worst = 0.0
        for i in 0..<Int(10 * Self.rate) {
            let t = Double(i) * Self.dt
            let withGyroscope = t < 5
            let rates = withGyroscope ? attitude(t - Self.dt).bodyRates(to: attitude(t), seconds: Self.dt) : nil
            let sample = physics.sample(attitude(t), bodyRatesDegreesPerSecond: rates)
            let heading = try #require(estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: reference).trueDegrees)
            if withGyroscope {
                lastWithGyroscope = heading
            } else {
                if firstWithout == nil { firstWithout = heading }
                worst = max(worst, abs(headingError(heading, 123)))
            }
        }
        let before = try #require(lastWithGyroscope)
        let after = try #require(firstWithout)
        #expect(abs(headingError(after, before)) < 0.5, "jump \(headingError(after, before))°")
        #expect(worst < 1.5, "largest error without the gyroscope \(worst)°")
    }

    @Test("walking at inclination 65°: RMS ≤ 2° without a gyroscope, ≤ 1° with one, read in bursts or not",
          arguments: [(false, false), (true, false), (true, true)])
    func walking(withGyroscope: Bool, bursts: Bool) {
        var burstField = BurstField()
        var physics = SensorPhysics(
            earthFieldMicrotesla: earthField(microtesla: 50, inclinationDegrees: 65), seed: withGyroscope ? 7 : 8)
        let reference = HeadingEstimator.ModelField(declinationDegrees: 0, totalIntensityMicrotesla: 50, inclinationDegrees: 65)
        var estimator = HeadingEstimator(calibration: .identity)
        var errors: [Double] = []
        // Four straight segments of 20 s, with a quick turn between them.
        let headings = [10.0, 100, 250, 330]
        func yaw(atSeconds t: Double) -> Double {
            let segment = max(0, min(3, Int(t / 20)))
            let intoSegment = t - Double(segment) * 20
            // The turn takes the first second of each segment.
            let start = segment == 0 ? headings[0] : headings[segment - 1]
            return intoSegment < 1 ? start + headingError(headings[segment], start) * intoSegment : headings[segment]
        }
        var previousYaw = headings[0]
        for i in 0..<Int(80 * Self.rate) {
            let t = Double(i) * Self.dt
            var sample = Self.daemonSample(endingAt: t, gyroscope: withGyroscope) { at, seconds in
                let yaw = yaw(atSeconds: at)
                defer { previousYaw = yaw }
                let attitude = Attitude(yawDegrees: yaw, pitchDegrees: 12, rollDegrees: -6)
                let rates: Vector3? = withGyroscope ? attitude.toBody(Vector3(0, 0, (yaw - previousYaw) / seconds)) : nil
                return physics.sample(
                    attitude, linearAccelerationG: SimulatedWalker.trunkAccelerationG(atSeconds: at, yawDegrees: yaw),
                    bodyRatesDegreesPerSecond: rates)
            }
            if bursts {
                sample.magneticMicrotesla = burstField.field(forSample: i) { k in
                    let at = Double(k) * Self.dt
                    return physics.sample(Attitude(yawDegrees: yaw(atSeconds: at), pitchDegrees: 12, rollDegrees: -6))
                        .magneticMicrotesla
                }
            }
            let estimate = estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: reference)
            guard t - Double(min(3, Int(t / 20))) * 20 > 5, let heading = estimate.trueDegrees else { continue }
            errors.append(headingError(heading, yaw(atSeconds: t)))
        }
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        #expect(rms <= (withGyroscope ? 1 : 2), "gyroscope \(withGyroscope), bursts \(bursts): RMS \(rms)°")
    }

    @Test("a 15 µT magnet is flagged within 1 s and cleared within 2 s of its removal, from any direction")
    func interference() {
        let field = earthField(microtesla: 50, inclinationDegrees: 65)
        let reference = HeadingEstimator.ModelField(declinationDegrees: 0, totalIntensityMicrotesla: 50, inclinationDegrees: 65)
        var generator = SeededGenerator(seed: 99)
        for trial in 0..<40 {
            var physics = SensorPhysics(earthFieldMicrotesla: field, seed: UInt64(trial) + 100)
            let direction = Vector3(
                Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator),
                Double.random(in: -1...1, using: &generator)
            ).normalized
            var estimator = HeadingEstimator(calibration: .identity)
            var flaggedAt: Double?
            var clearedAt: Double?
            for i in 0..<Int(15 * Self.rate) {
                let t = Double(i) * Self.dt
                let attitude = Attitude(yawDegrees: 40, pitchDegrees: 5, rollDegrees: 3)
                // The magnet is fixed to the device, in its frame.
                let magnet = t >= 5 && t < 10 ? direction * 15 : .zero
                let sample = physics.sample(attitude, extraFieldMicrotesla: magnet)
                let estimate = estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: reference)
                if t < 5 { #expect(estimate.problem == nil, "false alarm at \(t) s") }
                if t >= 5, flaggedAt == nil, estimate.problem == .interference { flaggedAt = t }
                if t >= 10, clearedAt == nil, estimate.problem == nil { clearedAt = t }
            }
            #expect((flaggedAt ?? 99) - 5 <= 1, "trial \(trial): flagged \(String(describing: flaggedAt))")
            #expect((clearedAt ?? 99) - 10 <= 2, "trial \(trial): cleared \(String(describing: clearedAt))")
        }
    }

    @Test("with a gyroscope a magnet coasts the heading, reliable and within 2°, up to the coasting time; then unreliable")
    func coasting() throws {
        var physics = SensorPhysics(earthFieldMicrotesla: earthField(microtesla: 50, inclinationDegrees: 65), seed: 12)
        physics.gyroscopeBiasDegreesPerSecond = Vector3(0.3, -0.2, 0.4)
        let reference = HeadingEstimator.ModelField(declinationDegrees: 0, totalIntensityMicrotesla: 50, inclinationDegrees: 65)
        var settings = HeadingEstimator.Settings()
        settings.maximumCoastingSeconds = 10
        var estimator = HeadingEstimator(settings: settings, calibration: .identity)
        func attitude(_ t: Double) -> Attitude {
            // Still for 5 s (the bias is learnt), then turning slowly to and fro.
            Attitude(yawDegrees: 40 + (t < 5 ? 0 : 60 * sin(0.3 * (t - 5))), pitchDegrees: 5, rollDegrees: -3)
        }
        var firstCoasting: Double?
        var firstUnreliable: Double?
        var worst = 0.0
        for i in 0..<Int(25 * Self.rate) {
            let t = Double(i) * Self.dt
            // A magnet fixed to the device from 8 s on.
            let magnet = t >= 8 ? Vector3(12, -8, 5) : .zero
            let rates = attitude(t - Self.dt).bodyRates(to: attitude(t), seconds: Self.dt)
            let sample = physics.sample(attitude(t), bodyRatesDegreesPerSecond: rates, extraFieldMicrotesla: magnet)
            let estimate = estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: reference)
            if t < 8 { #expect(estimate.correction == .magnetic, "at \(t) s: \(estimate.correction)") }
            if estimate.correction == .coasting {
                if firstCoasting == nil { firstCoasting = t }
                #expect(estimate.isReliable)
                let heading = try #require(estimate.trueDegrees)
                worst = max(worst, abs(headingError(heading, attitude(t).yawDegrees)))
            }
            if t >= 8, firstUnreliable == nil, estimate.problem == .interference { firstUnreliable = t }
        }
        let coasting = try #require(firstCoasting)
        let unreliable = try #require(firstUnreliable)
        #expect(coasting - 8 <= 0.5, "flagged at \(coasting) s")
        #expect(abs(unreliable - coasting - 10) <= 0.1, "unreliable at \(unreliable) s, coasting from \(coasting) s")
        #expect(worst <= 2, "largest error while coasting \(worst)°")
    }

    @Test("without a calibration the heading is computed but marked unreliable")
    func uncalibrated() {
        var physics = SensorPhysics(earthFieldMicrotesla: earthField(microtesla: 50, inclinationDegrees: 60), seed: 3)
        var estimator = HeadingEstimator()
        let estimate = estimator.update(physics.sample(Attitude(yawDegrees: 10)), seconds: 0, model: nil)
        #expect(estimate.problem == .notCalibrated)
        #expect(!estimate.isReliable)
        #expect(estimate.trueDegrees != nil)
    }
}
