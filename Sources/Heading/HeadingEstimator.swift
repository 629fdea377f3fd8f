#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The heading pipeline: calibrate → estimate the attitude → add declination and mount
/// offset, with the magnetic field checked against a reference learnt from it.
///
/// With a gyroscope, the attitude is `OrientationEstimator`'s (after VQF): the gyroscope carries
/// it, the accelerometer levels it, the magnetometer sets the heading, and while the field is
/// disturbed the heading coasts on the gyroscope for up to `maximumCoastingSeconds`. Without
/// one, the heading is `TiltCompass`'s, from the accelerometer's gravity and the
/// tilt-compensated field; a disturbed field then makes the heading unreliable at once, since
/// nothing else can carry it.
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
        /// How long the heading may coast on the gyroscope while the field is disturbed before
        /// it is reported unreliable, seconds. Default 60 s: with the bias known to about
        /// 0.05 °/s (after a rest, or a minute of motion), a minute of coasting drifts about
        /// 3°, well inside the 20° zone the wearer is guided by; a disturbance that lasts longer
        /// is no passing car or railing, and guessing on would only grow the error.
        public var maximumCoastingSeconds = 60.0
        /// How long the magnetometer's reading lags the accelerometer's and the gyroscope's,
        /// seconds: the field is turned forward by this much of the gyroscope's rotation before
        /// it is used. Default nil: learnt while the device turns (`MagnetometerLag`), since
        /// chips and boards differ. (The BROAD recordings' board lags by about 10 ms, which at
        /// 500 °/s spreads the measured dip by several degrees.)
        public var magnetometerLagSeconds: Double?
        /// The attitude filter with a gyroscope.
        public var orientation = OrientationEstimator.Settings()
        /// The learnt magnetic reference and disturbance detection.
        public var reference = MagneticReference.Settings()
        /// How far the field may depart from the reference with a gyroscope. Default 10 % in
        /// strength, 10° in dip (VQF's): during fast turns the measured dip spreads by several
        /// degrees (the magnetometer's lag and noise, the inclination's own error), and a
        /// disturbance flagged then makes the heading coast when it need not. A disturbance
        /// that stays inside pulls the heading only slowly.
        public var toleranceWithGyroscope = MagneticReference.Tolerance(strength: 0.1, dipDegrees: 10)
        /// The same without one. Default 7 % in strength and 4° in dip: a disturbed field then
        /// moves the heading at once, so a 15 µT magnet must be caught from any direction.
        public var toleranceWithoutGyroscope = MagneticReference.Tolerance(strength: 0.07, dipDegrees: 4)
        /// The heading without a gyroscope.
        public var compass = TiltCompass.Settings()

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The calibration applied to raw samples; nil until the wearer has calibrated.
    public var calibration: MagneticCalibration?
    private var orientation: OrientationEstimator
    private var reference: MagneticReference
    private var lag = MagnetometerLag()
    private var compass: TiltCompass
    /// The latest heading, degrees: where the other path carries on from when the gyroscope
    /// comes or goes.
    private var heading: Double?
    /// Whether the compass has followed every sample so far; after samples with a gyroscope it
    /// carries on from the heading they left, should the gyroscope drop out.
    private var compassIsCurrent = false
    /// Whether the orientation filter has followed every sample so far: after samples without
    /// a gyroscope it starts again, since the body turned meanwhile in ways it did not see.
    private var orientationIsCurrent = false

    /// Without a gyroscope the field's dip is compared with the reference only while
    /// |specific force| stays within this of 1 g, g.
    static let trustedDipDeviationG = 0.3

    /// The magnetometer's lag is learnt from samples scoring under this: twice the tolerance.
    static let lagLearningScore = 2.0

    /// A pipeline with no history.
    public init(settings: Settings = Settings(), calibration: MagneticCalibration? = nil) {
        self.settings = settings
        self.calibration = calibration
        orientation = OrientationEstimator(settings: settings.orientation)
        compass = TiltCompass(settings: settings.compass)
        reference = MagneticReference(settings: settings.reference)
    }

    /// The current estimate of gravity's direction in the body frame.
    public var down: Vector3? { orientationIsCurrent ? orientation.down : compass.down }

    /// Processes one sample.
    /// - Parameters:
    ///   - sample: body-frame magnetometer, accelerometer and gyroscope.
    ///   - seconds: time since the previous sample (0 for the first).
    ///   - model: the magnetic model at the place, or nil when unknown (no declination; the
    ///     reference field is then learnt from the measurements alone).
    public mutating func update(_ sample: IMUSample, seconds: Double, model: ModelField?) -> HeadingEstimate {
        let dt = seconds.isFinite && seconds > 0 ? seconds : 0
        if let model {
            reference.setModel(strengthMicrotesla: model.totalIntensityMicrotesla, inclinationDegrees: model.inclinationDegrees)
        }
        let field = (calibration ?? .identity).apply(sample.magneticMicrotesla)
        var estimate = HeadingEstimate(
            magneticDegrees: nil, trueDegrees: nil, declinationDegrees: model?.declinationDegrees ?? 0,
            fieldMicrotesla: field.isFinite ? field.length : nil, inclinationDegrees: nil, interferenceScore: 0,
            problem: nil)
        let measured: (degrees: Double, horizontal: Double)?
        if let rate = sample.angularRateDegreesPerSecond, rate.isFinite {
            if !orientationIsCurrent {
                orientation = OrientationEstimator(settings: settings.orientation)
                orientationIsCurrent = true
            }
            compassIsCurrent = false
            measured = updateOrientation(rate: rate, sample: sample, field: field, seconds: dt, estimate: &estimate)
        } else {
            orientationIsCurrent = false
            measured = updateCompass(sample: sample, field: field, seconds: dt, estimate: &estimate)
        }
        estimate.interferenceScore = reference.score
        guard let measured else {
            estimate.problem = .noSolution
            estimate.correction = .none
            return estimate
        }
        estimate.magneticDegrees = measured.degrees
        estimate.trueDegrees = Self.wrap(measured.degrees + estimate.declinationDegrees + settings.mountOffsetDegrees)
        if measured.horizontal < TiltCompensation.minimumHorizontalProjection {
            estimate.problem = .pointingVertical
        } else if calibration == nil {
            estimate.problem = .notCalibrated
        } else if estimate.correction == .none {
            estimate.problem = .interference
        }
        return estimate
    }

    /// The gyroscope's path: the attitude from `OrientationEstimator`, the heading corrected by
    /// the field unless it is disturbed.
    private mutating func updateOrientation(
        rate: Vector3, sample: IMUSample, field: Vector3, seconds: Double, estimate: inout HeadingEstimate
    ) -> (degrees: Double, horizontal: Double)? {
        orientation.update(angularRateDegreesPerSecond: rate, accelerationG: sample.accelerationG, seconds: seconds)
        guard orientation.hasStarted, field.isFinite, field.length > 0 else { return nil }
        // The field read `lag` ago, turned forward by the body's rotation since: a vector fixed
        // in the world turns by −ω × v in the body. Rotation is linear, so the level frame's
        // field is the read one less lag times the turning one, each rotated once.
        let omega = (rate - orientation.bias.degreesPerSecond) * (.pi / 180)
        let attitude = orientation.levelAttitude
        let read = attitude.rotate(field)
        let turning = attitude.rotate(omega.cross(field))
        // Learnt while the field is plausible: a lag not yet learnt spreads the dip enough to
        // flag fast turns as disturbed.
        if reference.score < Self.lagLearningScore {
            lag.update(verticalMicrotesla: read.z, verticalRate: turning.z, seconds: seconds)
        }
        let level = read - turning * (settings.magnetometerLagSeconds ?? lag.seconds)
        let strength = level.length
        let dip = asin(max(-1, min(1, level.z / strength))) * 180 / .pi
        estimate.inclinationDegrees = dip
        reference.update(
            strengthMicrotesla: strength, inclinationDegrees: dip, tolerance: settings.toleranceWithGyroscope,
            turnDegreesPerSecond: omega.length * 180 / .pi, seconds: seconds)
        let weight: Double
        if !reference.isDisturbed {
            weight = 1
            estimate.correction = .magnetic
        } else if reference.disturbedSeconds <= settings.maximumCoastingSeconds {
            weight = 0
            estimate.correction = .coasting
            estimate.coastingSeconds = reference.disturbedSeconds
        } else {
            // Past the coasting time the heading is unreliable; it follows the field again,
            // slowly, so that a new field the reference has not yet accepted is not fought.
            weight = 0.5
            estimate.correction = .none
        }
        orientation.correctHeading(levelField: level, weight: weight, seconds: seconds)
        let result = orientation.heading
        heading = result.degrees
        return result
    }

    /// The path without a gyroscope: `TiltCompass`'s heading; a disturbed field makes it
    /// unreliable at once.
    private mutating func updateCompass(
        sample: IMUSample, field: Vector3, seconds: Double, estimate: inout HeadingEstimate
    ) -> (degrees: Double, horizontal: Double)? {
        if !compassIsCurrent, let heading { compass.resume(fromDegrees: heading) }
        compassIsCurrent = true
        guard let result = compass.update(accelerationG: sample.accelerationG, field: field, seconds: seconds) else {
            return nil
        }
        let dip = TiltCompensation.inclinationDegrees(field: field, down: result.down)
        estimate.inclinationDegrees = dip
        // The dip is only as good as gravity: not while the body accelerates hard.
        let accelerating = abs(sample.accelerationG.length - 1) > Self.trustedDipDeviationG
        reference.update(
            strengthMicrotesla: field.length, inclinationDegrees: accelerating ? nil : dip,
            tolerance: settings.toleranceWithoutGyroscope, turnDegreesPerSecond: 0, seconds: seconds)
        estimate.correction = reference.isDisturbed ? .none : .magnetic
        heading = result.degrees ?? heading
        let horizontal = (1 - min(1, result.down.x * result.down.x)).squareRoot()
        return heading.map { ($0, horizontal) }
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
