#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The heading pipeline: calibrate → estimate gravity → tilt-compensate → filter → add
/// declination and mount offset, with an interference check against the magnetic model.
///
/// Pure: the caller passes each sample with the time since the previous one, and the model's
/// field at the current place (or nil before the first fix).
public struct HeadingEstimator: Sendable {
    /// The model's field at the place, from WMM2025.
    public struct ModelField: Sendable, Hashable {
        /// Declination, degrees east.
        public var declinationDegrees: Double
        /// Total intensity F, microtesla.
        public var totalIntensityMicrotesla: Double
        /// Inclination I, degrees.
        public var inclinationDegrees: Double

        public init(declinationDegrees: Double, totalIntensityMicrotesla: Double, inclinationDegrees: Double) {
            self.declinationDegrees = declinationDegrees
            self.totalIntensityMicrotesla = totalIntensityMicrotesla
            self.inclinationDegrees = inclinationDegrees
        }
    }

    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// The device's forward axis relative to the wearer's, degrees clockwise; added to the
        /// heading. Default 0.
        public var mountOffsetDegrees = 0.0
        /// Without a gyroscope the heading is tracked by two Kalman filters run side by side
        /// (an interacting multiple model estimator): one for a wearer holding a heading, one
        /// for a wearer turning. This is how far the held heading may wander, °²/s: smaller
        /// averages the noise of a held heading over longer. Default 0.2 °²/s.
        public var steadyHeadingWander = 0.2
        /// The turning model's random turn jerk, (°/s³)²/Hz: large enough to follow a turn
        /// starting and stopping. Default 1000.
        public var turningJerk = 1000.0
        /// How long a wearer typically holds a heading before turning, seconds (the steady
        /// model's expected dwell). Default 10 s.
        public var steadyDwellSeconds = 10.0
        /// How long a turn typically lasts, seconds (the turning model's expected dwell).
        /// Default 0.5 s.
        public var turningDwellSeconds = 0.5
        /// Time constant of the measured heading-noise estimate, seconds. Default 1 s.
        public var noiseTimeConstant = 1.0
        /// While walking without a gyroscope, the tracker follows the mean heading over this
        /// window, seconds: one stride, so that the trunk's sway at the stride's and the steps'
        /// frequencies (1 and 2 Hz), which the gravity estimate cannot follow, averages out.
        /// Default 1 s; a walk whose stride is off 1 Hz keeps part of its sway (a fifth at
        /// 0.8 Hz). At most `TurnTracker.recentCapacity` samples.
        public var gaitWindowSeconds = 1.0
        /// With a gyroscope: how fast the magnetometer corrects the integrated heading, seconds.
        /// Default 1 s.
        public var gyroCorrectionTimeConstant = 1.0
        /// Gravity estimation.
        public var gravity = GravityEstimator.Settings()
        /// Interference detection.
        public var interference = InterferenceDetector.Settings()

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The calibration applied to raw samples; nil until the wearer has calibrated.
    public var calibration: MagneticCalibration?
    private var gravity: GravityEstimator
    private var interference: InterferenceDetector
    private var heading: Double?
    private var tracker = TurnTracker()
    /// Whether the tracker has followed every sample so far; after samples with a gyroscope it
    /// restarts from the heading they left, should the gyroscope drop out.
    private var trackerIsCurrent = false

    /// A pipeline with no history.
    public init(settings: Settings = Settings(), calibration: MagneticCalibration? = nil) {
        self.settings = settings
        self.calibration = calibration
        gravity = GravityEstimator(settings: settings.gravity)
        interference = InterferenceDetector(settings: settings.interference)
    }

    /// The current estimate of gravity's direction in the body frame.
    public var down: Vector3? { gravity.down }

    /// Processes one sample.
    /// - Parameters:
    ///   - sample: body-frame magnetometer, accelerometer and gyroscope.
    ///   - seconds: time since the previous sample (0 for the first).
    ///   - model: the magnetic model at the place, or nil when unknown (no declination, no
    ///     interference check).
    public mutating func update(_ sample: IMUSample, seconds: Double, model: ModelField?) -> HeadingEstimate {
        let dt = seconds.isFinite && seconds > 0 ? seconds : 0
        gravity.update(
            accelerationG: sample.accelerationG, angularRateDegreesPerSecond: sample.angularRateDegreesPerSecond,
            seconds: dt)
        let field = (calibration ?? .identity).apply(sample.magneticMicrotesla)
        var estimate = HeadingEstimate(
            magneticDegrees: nil, trueDegrees: nil, declinationDegrees: model?.declinationDegrees ?? 0,
            fieldMicrotesla: field.isFinite ? field.length : nil, inclinationDegrees: nil, interferenceScore: 0,
            problem: nil)
        guard let down = gravity.down else {
            estimate.problem = .noSolution
            return estimate
        }
        estimate.inclinationDegrees = TiltCompensation.inclinationDegrees(field: field, down: down)
        if let model, let inclination = estimate.inclinationDegrees {
            interference.update(
                fieldMicrotesla: field.length, inclinationDegrees: inclination,
                modelFieldMicrotesla: model.totalIntensityMicrotesla, modelInclinationDegrees: model.inclinationDegrees,
                seconds: dt)
            estimate.interferenceScore = interference.score
        }

        guard let measured = TiltCompensation.magneticHeadingDegrees(field: field, down: down) else {
            estimate.problem = down.x.magnitude > 0.99 ? .pointingVertical : .noSolution
            return estimate
        }
        let filtered = filter(measured, sample: sample, down: down, seconds: dt)
        estimate.magneticDegrees = filtered
        estimate.trueDegrees = Self.wrap(filtered + estimate.declinationDegrees + settings.mountOffsetDegrees)
        if calibration == nil {
            estimate.problem = .notCalibrated
        } else if interference.isFlagged {
            estimate.problem = .interference
        }
        return estimate
    }

    /// Circular smoothing of the heading: a two-model tracker without a gyroscope
    /// (`TurnTracker`), complementary with one.
    private mutating func filter(_ measured: Double, sample: IMUSample, down: Vector3, seconds: Double) -> Double {
        guard let previous = heading else {
            heading = measured
            tracker.start(measured: measured)
            trackerIsCurrent = true
            return measured
        }
        // No time passed (a burst's samples dated back to a fix that came between them): the
        // heading holds. Starting afresh from the unfiltered measurement would throw away the
        // filter's work and, while walking, jump by the sway.
        guard seconds > 0 else { return previous }
        let next: Double
        if let gyro = sample.angularRateDegreesPerSecond, gyro.isFinite {
            // The heading is the yaw ψ of a yaw-pitch-roll attitude; with gravity
            // d = (−sin θ, sin φ cos θ, cos φ cos θ) in the body, ψ̇ = (q sin φ + r cos φ) / cos θ
            // = (q·d_y + r·d_z) / (d_y² + d_z²). (Not ω·d: tilting a pitched body moves ψ too.)
            let horizontal = max(down.y * down.y + down.z * down.z, 1e-6)
            let yawRate = (gyro.y * down.y + gyro.z * down.z) / horizontal
            let predicted = previous + yawRate * seconds
            let gain = seconds / (settings.gyroCorrectionTimeConstant + seconds)
            next = predicted + Self.difference(predicted, measured) * gain
            trackerIsCurrent = false
        } else {
            if !trackerIsCurrent {
                tracker.start(measured: previous)
                trackerIsCurrent = true
            }
            next = tracker.update(
                measured: measured, seconds: seconds, walking: gravity.movingFraction, settings: settings)
        }
        heading = Self.wrap(next)
        return heading!
    }

    /// `b − a` wrapped to (−180, 180].
    static func difference(_ a: Double, _ b: Double) -> Double {
        let d = remainder(b - a, 360)
        return d == -180 ? 180 : d
    }

    /// An angle wrapped to [0, 360).
    static func wrap(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let wrapped = r < 0 ? r + 360 : r
        return wrapped >= 360 ? 0 : wrapped
    }
}

extension HeadingEstimator {
    /// The heading filter without a gyroscope: an interacting multiple model (IMM) estimator
    /// (Blom and Bar-Shalom, 1988) running two Kalman filters side by side, one for a wearer
    /// holding a heading (the heading wanders slowly, no turn rate) and one for a wearer
    /// turning (heading, turn rate and turn acceleration, with random jerk).
    ///
    /// Why two: at high inclination the horizontal field is weak and the accelerometer's noise
    /// tilts it by tan(inclination) times as much, so one sample's heading is noisy (±1.6° at
    /// 75°, 50 Hz, datasheet noise). A single filter must trade that noise against lag when a
    /// turn starts or stops; with two, the steady one averages a held heading over seconds
    /// while the turning one follows a turn, and each sample's fit to each model (its
    /// innovation against that model's own uncertainty) says which to believe. The turning
    /// model carries the turn acceleration so that it follows a turn's smooth start and stop
    /// with a low gain. The measurement noise is estimated from the samples themselves, from
    /// second differences, which a steady turn does not inflate. While the wearer walks, the
    /// tilt the heading is computed with sways with each stride, too fast for the gravity
    /// estimate to follow, and the heading sways with it by several degrees; taken as it is,
    /// that sway looks like turning to and fro. So while walking the filters take the mean
    /// heading over one stride (`gaitWindowSeconds`) instead, in which the sway averages out.
    ///
    /// All state is stored inline (a handful of numbers and a ring of 128 headings): no
    /// allocation per sample.
    struct TurnTracker: Sendable {
        /// One model's Kalman filter: heading (degrees, kept in [0, 360)), turn rate (°/s) and
        /// turn acceleration (°/s²), and their covariance (symmetric, upper triangle).
        struct Model: Sendable {
            var heading = 0.0
            var rate = 0.0
            var acceleration = 0.0
            var p00 = 0.0, p01 = 0.0, p02 = 0.0
            var p11 = 0.0, p12 = 0.0
            var p22 = 0.0

            /// The model of a held heading: no turn rate or acceleration, and no doubt about it.
            mutating func hold() {
                rate = 0
                acceleration = 0
                (p01, p02, p11, p12, p22) = (0, 0, 0, 0, 0)
            }
        }

        /// The turn rate a start may already have, °/s: the initial rate uncertainty.
        static let initialRateDegreesPerSecond = 30.0
        /// The noise assumed before there are samples to measure it, degrees.
        static let initialNoiseDegrees = 1.0
        /// The least noise assumed, degrees: keeps the filters from trusting one sample
        /// absolutely when the sensors are ideal.
        static let minimumNoiseDegrees = 0.01
        /// A second difference beyond this many standard deviations is an outlier for the
        /// noise estimate (a jolt, or the start of a turn), and counts only this far.
        static let noiseClipSigmas = 3.0
        /// Model probabilities are kept within [floor, 1 − floor] so either can take over.
        static let probabilityFloor = 1e-4
        /// How many recent headings are kept for the stride's mean: a second at up to 128 Hz.
        static let recentCapacity = 128

        private(set) var steady = Model()
        private(set) var turning = Model()
        /// The probability that the wearer is turning.
        private(set) var turningProbability = 0.5
        /// The measured variance of one sample's heading, degrees².
        private(set) var noiseVariance = initialNoiseDegrees * initialNoiseDegrees
        private var previousMeasured: Double?
        private var previousDifference: Double?
        /// The latest measured headings, unwrapped, a ring; `recentCount` of them are valid, the
        /// newest at `newestIndex`.
        private var recent = InlineArray<128, Double>(repeating: 0)
        private var recentCount = 0
        private var newestIndex = 0

        /// Restarts at a measured heading, at rest.
        mutating func start(measured: Double) {
            steady = Model()
            steady.heading = measured
            steady.p00 = noiseVariance
            turning = steady
            turning.p11 = Self.initialRateDegreesPerSecond * Self.initialRateDegreesPerSecond
            turningProbability = 0.5
            previousMeasured = measured
            previousDifference = nil
            recentCount = 0
            remember(unwrapped: measured)
        }

        /// Takes one measured heading; returns the combined estimate, degrees. Called after
        /// `start`, with `seconds` > 0 (the estimator's `filter` sees to both).
        /// - Parameter walking: how much the wearer is walking, 0…1 (`GravityEstimator.movingFraction`).
        mutating func update(measured: Double, seconds: Double, walking: Double, settings: Settings) -> Double {
            let walking = walking.isFinite ? min(1, max(0, walking)) : 0
            // Continued from the previous heading across 0°/360°, as the ring keeps them.
            let unwrapped = recent[newestIndex] + HeadingEstimator.difference(recent[newestIndex], measured)
            let stride =
                walking > 0
                ? strideMean(current: unwrapped, seconds: seconds, windowSeconds: settings.gaitWindowSeconds) : measured
            remember(unwrapped: unwrapped)
            let measured = HeadingEstimator.wrap(measured + walking * HeadingEstimator.difference(measured, stride))
            estimateNoise(measured: measured, seconds: seconds, timeConstant: settings.noiseTimeConstant)

            // Mixing: each filter starts the step from the blend of both that its model
            // would have come from, given the chance of switching in `seconds`.
            let toTurning = min(1, seconds / max(settings.steadyDwellSeconds, seconds))
            let toSteady = min(1, seconds / max(settings.turningDwellSeconds, seconds))
            let pSteady = 1 - turningProbability
            let pTurning = turningProbability
            let cSteady = (1 - toTurning) * pSteady + toSteady * pTurning
            let cTurning = toTurning * pSteady + (1 - toSteady) * pTurning
            var nextSteady = Self.mix(steady, weight: (1 - toTurning) * pSteady / cSteady, turning)
            var nextTurning = Self.mix(steady, weight: toTurning * pSteady / cTurning, turning)
            nextSteady.hold()

            // Prediction and update of each filter, with its likelihood.
            let logSteady = Self.step(
                &nextSteady, measured: measured, seconds: seconds, wander: settings.steadyHeadingWander, jerk: 0,
                noiseVariance: noiseVariance)
            let logTurning = Self.step(
                &nextTurning, measured: measured, seconds: seconds, wander: 0, jerk: settings.turningJerk,
                noiseVariance: noiseVariance)
            steady = nextSteady
            turning = nextTurning
            // Probabilities from log-likelihoods, relative to the larger so nothing underflows.
            let top = max(logSteady, logTurning)
            let wSteady = cSteady * exp(logSteady - top)
            let wTurning = cTurning * exp(logTurning - top)
            let probability = wTurning / (wSteady + wTurning)
            if probability.isFinite {
                turningProbability = min(1 - Self.probabilityFloor, max(Self.probabilityFloor, probability))
            }
            return HeadingEstimator.wrap(
                steady.heading + turningProbability * HeadingEstimator.difference(steady.heading, turning.heading))
        }

        /// The noise of one sample's heading, from second differences of the measurements:
        /// for white noise of variance σ², z₀ − 2z₁ + z₂ has variance 6σ², and a steady turn
        /// adds nothing.
        private mutating func estimateNoise(measured: Double, seconds: Double, timeConstant: Double) {
            defer { previousMeasured = measured }
            guard let previous = previousMeasured else { return }
            let change = HeadingEstimator.difference(previous, measured)
            defer { previousDifference = change }
            guard let previousChange = previousDifference else { return }
            let second = change - previousChange
            let limit = Self.noiseClipSigmas * Self.noiseClipSigmas * 6 * noiseVariance
            let squared = min(second * second, limit)
            let gain = seconds / (max(timeConstant, 0) + seconds)
            let floor = Self.minimumNoiseDegrees * Self.minimumNoiseDegrees
            noiseVariance = max(floor, noiseVariance + (squared / 6 - noiseVariance) * gain)
        }

        /// The mean of `current` (unwrapped) and the headings before it over `windowSeconds` (as
        /// many as are kept), wrapped to [0, 360). Unwrapped, 359° and 1° average to 0°.
        private func strideMean(current: Double, seconds: Double, windowSeconds: Double) -> Double {
            let samples = (windowSeconds / seconds).rounded()
            let wanted = samples.isFinite ? Int(max(1, min(samples, Double(Self.recentCapacity + 1)))) : 1
            let count = min(wanted - 1, recentCount)
            var sum = 0.0
            for back in 0..<count {
                sum += recent[(newestIndex - back + Self.recentCapacity) % Self.recentCapacity] - current
            }
            return HeadingEstimator.wrap(current + sum / Double(count + 1))
        }

        /// Keeps a heading, unwrapped (continuing from the one before across 0°/360°), in the
        /// ring of recent ones, so that their mean is a plain sum.
        private mutating func remember(unwrapped: Double) {
            newestIndex = (newestIndex + 1) % Self.recentCapacity
            recent[newestIndex] = unwrapped
            recentCount = min(recentCount + 1, Self.recentCapacity)
        }

        /// The blend `weight·a + (1 − weight)·b` of two filters, with the spread of their
        /// means added to the covariance.
        private static func mix(_ a: Model, weight: Double, _ b: Model) -> Model {
            let w = weight.isFinite ? min(1, max(0, weight)) : 0.5
            let v = 1 - w
            // Headings are blended through their wrapped difference.
            let spread = HeadingEstimator.difference(a.heading, b.heading)
            var m = Model()
            m.heading = HeadingEstimator.wrap(a.heading + v * spread)
            m.rate = w * a.rate + v * b.rate
            m.acceleration = w * a.acceleration + v * b.acceleration
            let da = (-v * spread, a.rate - m.rate, a.acceleration - m.acceleration)
            let db = (w * spread, b.rate - m.rate, b.acceleration - m.acceleration)
            m.p00 = w * (a.p00 + da.0 * da.0) + v * (b.p00 + db.0 * db.0)
            m.p01 = w * (a.p01 + da.0 * da.1) + v * (b.p01 + db.0 * db.1)
            m.p02 = w * (a.p02 + da.0 * da.2) + v * (b.p02 + db.0 * db.2)
            m.p11 = w * (a.p11 + da.1 * da.1) + v * (b.p11 + db.1 * db.1)
            m.p12 = w * (a.p12 + da.1 * da.2) + v * (b.p12 + db.1 * db.2)
            m.p22 = w * (a.p22 + da.2 * da.2) + v * (b.p22 + db.2 * db.2)
            return m
        }

        /// One Kalman prediction (constant turn acceleration with white jerk of spectral
        /// density `jerk`, plus a heading random walk `wander`) and update; returns the
        /// log-likelihood of the measurement.
        private static func step(
            _ m: inout Model, measured: Double, seconds h: Double, wander: Double, jerk q: Double,
            noiseVariance r: Double
        ) -> Double {
            let g = h * h / 2
            m.heading += m.rate * h + m.acceleration * g
            m.rate += m.acceleration * h
            // P ← F P Fᵀ + Q with F = [[1, h, h²/2], [0, 1, h], [0, 0, 1]].
            let a00 = m.p00 + h * m.p01 + g * m.p02
            let a01 = m.p01 + h * m.p11 + g * m.p12
            let a02 = m.p02 + h * m.p12 + g * m.p22
            let a11 = m.p11 + h * m.p12
            let a12 = m.p12 + h * m.p22
            let (h2, h3) = (h * h, h * h * h)
            let p00 = a00 + h * a01 + g * a02 + q * h3 * h2 / 20 + wander * h
            let p01 = a01 + h * a02 + q * h2 * h2 / 8
            let p02 = a02 + q * h3 / 6
            let p11 = a11 + h * a12 + q * h3 / 3
            let p12 = a12 + q * h2 / 2
            let p22 = m.p22 + q * h
            let innovation = HeadingEstimator.difference(HeadingEstimator.wrap(m.heading), measured)
            let s = p00 + r
            let (k0, k1, k2) = (p00 / s, p01 / s, p02 / s)
            m.heading = HeadingEstimator.wrap(m.heading + k0 * innovation)
            m.rate += k1 * innovation
            m.acceleration += k2 * innovation
            m.p00 = p00 - k0 * p00
            m.p01 = p01 - k0 * p01
            m.p02 = p02 - k0 * p02
            m.p11 = p11 - k1 * p01
            m.p12 = p12 - k1 * p02
            m.p22 = p22 - k2 * p02
            return -0.5 * (innovation * innovation / s + log(s))
        }
    }
}
