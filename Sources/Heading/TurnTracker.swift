#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TiltCompass {
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
    /// second differences, which a steady turn does not inflate. (Walking sway is taken out
    /// before, in the gravity the heading is computed with: `GravityEstimator.strideDown`.)
    ///
    /// All state is stored inline (a dozen numbers): no allocation per sample.
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

        private(set) var steady = Model()
        private(set) var turning = Model()
        /// The probability that the wearer is turning.
        private(set) var turningProbability = 0.5
        /// The measured variance of one sample's heading, degrees².
        private(set) var noiseVariance = initialNoiseDegrees * initialNoiseDegrees
        private var previousMeasured: Double?
        private var previousDifference: Double?

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
        }

        /// Takes one measured heading; returns the combined estimate, degrees. Called after
        /// `start`, with `seconds` > 0 (the estimator's `filter` sees to both).
        mutating func update(measured: Double, seconds: Double, settings: Settings) -> Double {
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
