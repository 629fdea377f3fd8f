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
/// one, gravity comes from the accelerometer (`GravityEstimator`), the heading from the
/// tilt-compensated magnetometer, smoothed by `TurnTracker`; a disturbed field then makes the
/// heading unreliable at once, since nothing else can carry it.
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
        /// Without a gyroscope: how fast the stride's mean gravity may turn in the body before
        /// the latest gravity is used instead, °/s (the mean's weight is exp(−(rate/this)²)).
        /// Default 5 °/s: a walker's trunk holds its lean; a hand that tilts the device does not.
        public var strideTurnToleranceDegreesPerSecond = 5.0
        /// Without a gyroscope, while walking: how far the heading may sway about its
        /// stride's filtered value before it counts as turning, degrees (the filtered value's
        /// weight is exp(−(Δ/this)²)). Default 5°: a trunk's sway moves the heading by a few
        /// degrees; a turn moves it by more within a fraction of a second.
        public var swayDegrees = 5.0
        /// How long the heading's departure from its stride's filtered value is smoothed
        /// before it is judged, seconds. Default 0.25 s, half a step: sway goes to and fro
        /// within it, a turn pulls one way.
        public var turnSmoothingSeconds = 0.25
        /// Smoothing of the stride mean's turn rate, seconds. Default 0.1 s.
        public var strideTurnTimeConstantSeconds = 0.1
        /// Gravity estimation without a gyroscope.
        public var gravity = GravityEstimator.Settings()

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The calibration applied to raw samples; nil until the wearer has calibrated.
    public var calibration: MagneticCalibration?
    private var orientation: OrientationEstimator
    private var gravity: GravityEstimator
    private var reference: MagneticReference
    private var lag = MagnetometerLag()
    private var previousStrideDown: Vector3?
    /// How fast the stride's mean gravity turns in the body, °/s, smoothed.
    private var strideTurnDegreesPerSecond = 0.0
    /// How long that rate has stayed under its tolerance, seconds.
    private var strideSteadySeconds = 0.0
    private var stride = StrideFilter()
    private var turnDeparture = 0.0
    private var heading: Double?
    private var tracker = TurnTracker()
    /// Whether the tracker has followed every sample so far; after samples with a gyroscope it
    /// restarts from the heading they left, should the gyroscope drop out.
    private var trackerIsCurrent = false
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
        gravity = GravityEstimator(settings: settings.gravity)
        reference = MagneticReference(settings: settings.reference)
    }

    /// The current estimate of gravity's direction in the body frame.
    public var down: Vector3? { orientationIsCurrent ? orientation.down : gravity.down }

    /// The gyroscope's estimated bias, °/s, body frame, and its uncertainty (1σ); nil without
    /// a gyroscope.
    public var gyroscopeBias: (degreesPerSecond: Vector3, sigma: Double)? {
        orientationIsCurrent ? (orientation.bias.degreesPerSecond, orientation.bias.sigmaDegreesPerSecond) : nil
    }

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
        var field = (calibration ?? .identity).apply(sample.magneticMicrotesla)
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
            trackerIsCurrent = false
            measured = updateOrientation(rate: rate, sample: sample, field: &field, seconds: dt, estimate: &estimate)
        } else {
            orientationIsCurrent = false
            measured = updateCompass(sample: sample, field: field, seconds: dt, estimate: &estimate)
        }
        estimate.interferenceScore = reference.score
        estimate.referenceFieldMicrotesla = reference.strengthMicrotesla
        estimate.referenceInclinationDegrees = reference.inclinationDegrees
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
        rate: Vector3, sample: IMUSample, field: inout Vector3, seconds: Double, estimate: inout HeadingEstimate
    ) -> (degrees: Double, horizontal: Double)? {
        orientation.update(angularRateDegreesPerSecond: rate, accelerationG: sample.accelerationG, seconds: seconds)
        guard orientation.hasStarted, field.isFinite, field.length > 0 else { return nil }
        // The field read `lag` ago, turned forward by the body's rotation since: a vector fixed
        // in the world turns by −ω × v in the body.
        let omega = (rate - orientation.bias.degreesPerSecond) * (.pi / 180)
        let turning = orientation.levelAttitude.rotate(omega.cross(field))
        // Learnt while the field is plausible: a lag not yet learnt spreads the dip enough to
        // flag fast turns as disturbed.
        if reference.score < Self.lagLearningScore {
            let read = orientation.levelAttitude.rotate(field)
            lag.update(verticalMicrotesla: read.z, verticalRate: turning.z, seconds: seconds)
        }
        let lagSeconds = settings.magnetometerLagSeconds ?? lag.seconds
        field = field - omega.cross(field) * lagSeconds
        let level = orientation.levelAttitude.rotate(field)
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

    /// The path without a gyroscope: gravity from the accelerometer, the tilt-compensated
    /// heading smoothed by the tracker; a disturbed field makes it unreliable at once.
    private mutating func updateCompass(
        sample: IMUSample, field: Vector3, seconds: Double, estimate: inout HeadingEstimate
    ) -> (degrees: Double, horizontal: Double)? {
        gravity.update(accelerationG: sample.accelerationG, seconds: seconds)
        guard var down = gravity.down else { return nil }
        // The stride's mean gravity, unless the body has tilted since: then the field's dip
        // seen with it departs from the reference, and the latest gravity is the better one.
        var walking = 0.0
        if let stride = gravity.strideDown {
            // The stride's mean, while it holds still (a walker's trunk stays upright, and a
            // turn about the vertical does not move it in the body); the latest gravity while
            // the mean moves, as it does when the body tilts.
            let turn = previousStrideDown.map { (stride - $0).length / max(seconds, 1e-3) * 180 / .pi } ?? 0
            previousStrideDown = stride
            strideTurnDegreesPerSecond += (turn - strideTurnDegreesPerSecond)
                * min(1, seconds / settings.strideTurnTimeConstantSeconds)
            let departure = strideTurnDegreesPerSecond / settings.strideTurnToleranceDegreesPerSecond
            // Only once the mean has held for a whole stride is it free of the tilt before.
            strideSteadySeconds = departure < 1 ? strideSteadySeconds + seconds : 0
            let strideSeconds = gravity.settings.strideSeconds
            let settled = min(1, max(0, (strideSteadySeconds - strideSeconds) / strideSeconds))
            let steadiness = exp(-departure * departure) * settled
            down = (down * (1 - steadiness) + stride * steadiness).normalized
            walking = steadiness * gravity.movingFraction
        }
        let dip = TiltCompensation.inclinationDegrees(field: field, down: down)
        estimate.inclinationDegrees = dip
        // The dip is only as good as gravity: not while the body accelerates hard.
        let accelerating = abs(sample.accelerationG.length - 1) > Self.trustedDipDeviationG
        reference.update(
            strengthMicrotesla: field.length, inclinationDegrees: accelerating ? nil : dip,
            tolerance: settings.toleranceWithoutGyroscope, turnDegreesPerSecond: 0, seconds: seconds)
        estimate.correction = reference.isDisturbed ? .none : .magnetic
        let horizontal = (1 - min(1, down.x * down.x)).squareRoot()
        guard var measured = TiltCompensation.magneticHeadingDegrees(field: field, down: down) else {
            return heading.map { ($0, horizontal) }
        }
        if seconds > 0 {
            // The sway the body's own tilts leave in the heading, taken out over whole strides.
            let strideSamples = Int((gravity.settings.strideSeconds / seconds).rounded())
            let swayless = stride.update(measured, strideSamples: strideSamples)
            // A turn pulls the heading away from the stride's further than sway does: then the
            // heading as measured, which the stride's gravity already keeps free of the
            // trunk's accelerations, follows the turn at once.
            let departure = Self.difference(measured, swayless)
            turnDeparture += (departure - turnDeparture) * min(1, seconds / settings.turnSmoothingSeconds)
            let sway = turnDeparture / settings.swayDegrees
            measured = Self.wrap(measured + walking * exp(-sway * sway) * departure)
        }
        return (filter(measured, seconds: seconds), horizontal)
    }

    /// Smoothing of the heading without a gyroscope: a two-model tracker (`TurnTracker`).
    private mutating func filter(_ measured: Double, seconds: Double) -> Double {
        guard trackerIsCurrent, let previous = heading else {
            // After the gyroscope's samples the tracker starts from the heading they left.
            let start = heading ?? measured
            heading = start
            tracker.start(measured: start)
            trackerIsCurrent = true
            return start
        }
        // No time passed (a burst's samples dated back to a fix that came between them): the
        // heading holds. Starting afresh from the unfiltered measurement would throw away the
        // filter's work and, while walking, jump by the sway.
        guard seconds > 0 else { return previous }
        let next = tracker.update(measured: measured, seconds: seconds, settings: settings)
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
