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
        /// Heading smoothing without a gyroscope: the gain α of an alpha-beta tracker of
        /// heading and turn rate (0 < α ≤ 1; smaller is smoother and slower). Default 0.1.
        public var trackingGain = 0.1
        /// The highest gain while a turn starts or stops. Default 0.6.
        public var manoeuvreGain = 0.6
        /// The window over which residuals must keep their sign to count as a manoeuvre,
        /// seconds. Default 0.1 s.
        public var manoeuvreTimeConstant = 0.1
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
    private var rate = 0.0
    private var residualMean = 0.0
    private var noiseDegrees = 0.0

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

    /// Circular smoothing of the heading: adaptive without a gyroscope, complementary with one.
    private mutating func filter(_ measured: Double, sample: IMUSample, down: Vector3, seconds: Double) -> Double {
        guard let previous = heading, seconds > 0 else {
            heading = measured
            return measured
        }
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
        } else {
            // An alpha-beta tracker of heading and turn rate: it follows a steady turn without
            // lag and smooths noise; the gains (Benedict–Bordner, β = α²/(2 − α)) give a
            // response of about 1/α samples. When the wearer starts or stops turning, the
            // residuals keep one sign for a while, which noise does not: their short mean,
            // measured against the noise level, raises α until the tracker has caught up.
            let predicted = previous + rate * seconds
            let residual = Self.difference(predicted, measured)
            let meanGain = min(1, seconds / settings.manoeuvreTimeConstant)
            residualMean += (residual - residualMean) * meanGain
            if abs(residual) < 4 * max(noiseDegrees, 0.05) || noiseDegrees == 0 {
                noiseDegrees = (noiseDegrees * noiseDegrees
                    + (residual * residual - noiseDegrees * noiseDegrees) * min(1, seconds / 2)).squareRoot()
            }
            // Noise alone leaves |mean| ≈ σ·√(gain/2); more than a few times that is a manoeuvre.
            let quiet = max(noiseDegrees, 0.05) * (meanGain / 2).squareRoot()
            let manoeuvre = max(0, abs(residualMean) / quiet - 3)
            let alpha = min(settings.manoeuvreGain, settings.trackingGain * (1 + manoeuvre))
            let beta = alpha * alpha / (2 - alpha)
            next = predicted + alpha * residual
            rate += beta * residual / seconds
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
