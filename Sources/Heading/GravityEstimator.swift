/// The direction of gravity in the body frame, estimated from the accelerometer, and from the
/// gyroscope when there is one, so that walking does not tilt the compass.
///
/// A walker's trunk accelerates by up to ±0.25 g at 1–2 Hz; taken at face value that tilts the
/// apparent vertical by up to 15°, and the heading by that times tan(inclination) (twice as much
/// at 65°). Without a gyroscope the estimate is a low-pass filter whose time constant adapts:
/// short (`stillTimeConstant`) while the measured specific force stays close to 1 g, long
/// (`movingTimeConstant`) while it fluctuates, as in walking. With a gyroscope the estimate is
/// rotated with the body every sample and only pulled slowly towards the accelerometer, so
/// turning and tilting are followed at once.
public struct GravityEstimator: Sendable {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// Time constant while the body is still, seconds. Default 0: the accelerometer is then
        /// gravity itself, and tilting is followed at once (the heading filter smooths noise).
        /// Any lag here is costly: gravity late by dθ while tilting turns the heading by about
        /// dθ·tan(inclination) (3.7 dθ at 75°); 0.1 s gave 15° errors at 75° in simulation.
        public var stillTimeConstant = 0.0
        /// Time constant while it moves (and always with a gyroscope), seconds. Default 2 s.
        public var movingTimeConstant = 2.0
        /// RMS deviation of |specific force| from 1 g up to which the body counts as still
        /// (sensor noise), g. Default 0.01 g.
        public var stillDeviationG = 0.01
        /// RMS deviation of |specific force| from 1 g at which the filter counts as fully
        /// moving, g. Default 0.05 g.
        public var movingDeviationG = 0.05
        /// Time constant of that RMS deviation, seconds. Default 0.5 s.
        public var deviationTimeConstant = 0.5

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The current estimate: unit vector towards the ground in the body frame; nil until the
    /// first sample.
    public private(set) var down: Vector3?
    /// How much the body is moving as in walking, from 0 (still: the measured specific force
    /// stays within `stillDeviationG` of 1 g) to 1 (moving: `movingDeviationG` or more). Without
    /// a gyroscope the estimate then misses the trunk's sway at the gait's 1–2 Hz, and the
    /// heading is that much less certain.
    public private(set) var movingFraction = 0.0
    private var deviationSquared = 0.0

    /// An estimator with no estimate yet.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Takes one sample.
    /// - Parameters:
    ///   - accelerationG: specific force, body frame (at rest it points up, (0, 0, −1)).
    ///   - angularRateDegreesPerSecond: the gyroscope, or nil.
    ///   - seconds: time since the previous sample.
    public mutating func update(accelerationG: Vector3, angularRateDegreesPerSecond: Vector3?, seconds: Double) {
        guard accelerationG.isFinite, accelerationG.length > 0.1 else { return }
        let measured = (-accelerationG).normalized
        guard var estimate = down else {
            down = measured
            return
        }
        // No time passed (a burst's samples dated back to a fix that came between them): the
        // estimate holds. Taking the raw measurement instead would, while walking, tilt gravity
        // by the trunk's acceleration, and the heading and the interference check with it.
        guard seconds > 0, seconds.isFinite else { return }
        let deviation = accelerationG.length - 1
        let deviationGain = seconds / (settings.deviationTimeConstant + seconds)
        deviationSquared += (deviation * deviation - deviationSquared) * deviationGain
        let span = max(settings.movingDeviationG - settings.stillDeviationG, 1e-9)
        movingFraction = min(1, max(0, (deviationSquared.squareRoot() - settings.stillDeviationG) / span))
        let timeConstant: Double
        if let rate = angularRateDegreesPerSecond, rate.isFinite {
            // A vector fixed in the world turns by −ω·dt as seen from the body.
            let omega = rate * (.pi / 180)
            estimate = (estimate - omega.cross(estimate) * seconds).normalized
            timeConstant = settings.movingTimeConstant
        } else {
            timeConstant =
                settings.stillTimeConstant + (settings.movingTimeConstant - settings.stillTimeConstant) * movingFraction
        }
        let gain = seconds / (timeConstant + seconds)
        down = (estimate + (measured - estimate) * gain).normalized
    }
}
