#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The magnetic heading without a gyroscope: gravity from the accelerometer
/// (`GravityEstimator`), the field tilt-compensated with it, and the result smoothed.
///
/// Three things keep it honest without a gyroscope to say how the body turned:
/// - Gravity is the accelerometer itself while the body tilts (a low-pass would delay every
///   tilt, and the heading by tan(inclination) times as much), and the mean over a stride while
///   that mean holds still, as a walker's trunk does: it does not move when the wearer turns
///   about the vertical, so it takes out the trunk's accelerations without delaying turns.
/// - While walking, the sway the trunk's own tilts leave in the heading is cancelled over whole
///   strides by `StrideFilter`, without delay; a turn, which pulls the heading further and one
///   way, passes straight through.
/// - `TurnTracker` averages a held heading's noise and follows turns.
///
/// Pure; no allocation.
public struct TiltCompass: Sendable {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// The heading is tracked by two Kalman filters run side by side
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
        /// How fast the stride's mean gravity may turn in the body before
        /// the latest gravity is used instead, °/s (the mean's weight is exp(−(rate/this)²)).
        /// Default 5 °/s: a walker's trunk holds its lean; a hand that tilts the device does not.
        public var strideTurnToleranceDegreesPerSecond = 5.0
        /// While walking: how far the heading may sway about its
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
        /// Gravity estimation.
        public var gravity = GravityEstimator.Settings()

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    private var gravity: GravityEstimator
    private var previousStrideDown: Vector3?
    /// How fast the stride's mean gravity turns in the body, °/s, smoothed.
    private var strideTurnDegreesPerSecond = 0.0
    /// How long that rate has stayed under its tolerance, seconds.
    private var strideSteadySeconds = 0.0
    private var stride = StrideFilter()
    /// The heading's departure from its stride-filtered value, smoothed, degrees.
    private var turnDeparture = 0.0
    private var tracker = TurnTracker()
    /// The latest smoothed heading, degrees in [0, 360); nil before the first.
    public private(set) var headingDegrees: Double?
    /// The gravity the latest heading was computed with, body frame, unit length.
    public private(set) var down: Vector3?

    /// A compass that has seen nothing.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        gravity = GravityEstimator(settings: settings.gravity)
    }

    /// Carries on from a heading another estimate left (the gyroscope's, when it drops out), as
    /// if at rest there.
    public mutating func resume(fromDegrees degrees: Double) {
        headingDegrees = degrees
        tracker.start(measured: degrees)
        stride.reset()
    }

    /// Takes one sample; returns the gravity it used and the smoothed magnetic heading (nil
    /// while the heading is undefined: the forward axis vertical, or the field along gravity).
    /// - Parameters:
    ///   - accelerationG: specific force, body frame.
    ///   - field: calibrated field, body frame.
    ///   - seconds: time since the previous sample.
    public mutating func update(accelerationG: Vector3, field: Vector3, seconds: Double)
        -> (down: Vector3, degrees: Double?)?
    {
        gravity.update(accelerationG: accelerationG, seconds: seconds)
        guard var down = gravity.down else { return nil }
        var walking = 0.0
        if let strideDown = gravity.strideDown {
            // The stride's mean, while it holds still (a walker's trunk stays upright, and a
            // turn about the vertical does not move it in the body); the latest gravity while
            // the mean moves, as it does when the body tilts.
            let turn = previousStrideDown.map { (strideDown - $0).length / max(seconds, 1e-3) * 180 / .pi } ?? 0
            previousStrideDown = strideDown
            strideTurnDegreesPerSecond +=
                (turn - strideTurnDegreesPerSecond) * min(1, seconds / settings.strideTurnTimeConstantSeconds)
            let departure = strideTurnDegreesPerSecond / settings.strideTurnToleranceDegreesPerSecond
            // Only once the mean has held for a whole stride is it free of the tilt before.
            strideSteadySeconds = departure < 1 ? strideSteadySeconds + seconds : 0
            let strideSeconds = gravity.settings.strideSeconds
            let settled = min(1, max(0, (strideSteadySeconds - strideSeconds) / strideSeconds))
            let steadiness = exp(-departure * departure) * settled
            down = (down * (1 - steadiness) + strideDown * steadiness).normalized
            walking = steadiness * gravity.movingFraction
        }
        self.down = down
        guard var measured = TiltCompensation.magneticHeadingDegrees(field: field, down: down) else {
            return (down, headingDegrees)
        }
        if seconds > 0 {
            // The sway the body's own tilts leave in the heading, taken out over whole strides.
            let strideSamples = Int((gravity.settings.strideSeconds / seconds).rounded())
            let swayless = stride.update(measured, strideSamples: strideSamples)
            // A turn pulls the heading away from the stride's further than sway does, and one
            // way: then the heading as measured, which the stride's gravity already keeps free
            // of the trunk's accelerations, follows the turn at once.
            let departure = HeadingEstimator.difference(measured, swayless)
            turnDeparture += (departure - turnDeparture) * min(1, seconds / settings.turnSmoothingSeconds)
            let sway = turnDeparture / settings.swayDegrees
            measured = HeadingEstimator.wrap(measured + walking * exp(-sway * sway) * departure)
        }
        return (down, smooth(measured, seconds: seconds))
    }

    /// The tracker's estimate; the first heading starts it.
    private mutating func smooth(_ measured: Double, seconds: Double) -> Double {
        guard let previous = headingDegrees else {
            resume(fromDegrees: measured)
            return measured
        }
        // No time passed (a burst's samples dated back to a fix that came between them): the
        // heading holds. Starting afresh from the unfiltered measurement would throw away the
        // filter's work and, while walking, jump by the sway.
        guard seconds > 0 else { return previous }
        let next = HeadingEstimator.wrap(tracker.update(measured: measured, seconds: seconds, settings: settings))
        headingDegrees = next
        return next
    }
}
