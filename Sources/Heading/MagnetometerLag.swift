/// How long the magnetometer's reading lags the gyroscope's and the accelerometer's, learnt
/// from the data: chips sample at different instants, and a board may pair a field read
/// milliseconds ago with this instant's attitude. While the device turns at ω, a field read τ
/// late is off by τ·ω × m in the body, which at 500 °/s and 10 ms tilts it by 5°: the dip
/// spreads, the disturbance check fires, and the heading is pulled towards where the device
/// pointed a moment ago.
///
/// Why it can be learnt: in the level frame the field's vertical component is constant while
/// the field is undisturbed, and a lag adds τ·[R(ω × m)]_down to it, where R is the body's
/// attitude. The lag is the regression slope of the measured vertical component on that rate,
/// over exponentially weighted means; turning is what makes it visible, and while the device
/// is still the estimate stays where it was.
public struct MagnetometerLag: Sendable {
    /// Timing and limits, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// The memory of the regression, seconds of samples. Default 30 s.
        public var timeConstantSeconds = 30.0
        /// The largest lag believed, seconds. Default 0.05 s: more than two samples at 50 Hz
        /// would be a broken clock, not a lag.
        public var largestSeconds = 0.05
        /// The rate variance below which the estimate holds, (µT/s)²: turning at about 10 °/s
        /// in a 50 µT field. Default 100.
        public var leastRateVariance = 100.0

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The estimated lag, seconds.
    public private(set) var seconds = 0.0
    private var meanRate = 0.0
    private var meanVertical = 0.0
    private var covariance = 0.0
    private var rateVariance = 0.0
    private var started = false

    /// No lag, until turning shows one.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Takes one sample of an undisturbed field.
    /// - Parameters:
    ///   - verticalMicrotesla: the field's down component in the level frame, as read.
    ///   - verticalRate: [R(ω × m)]_down, µT/s: what a lag of one second would add to it.
    ///   - seconds: time since the previous sample.
    public mutating func update(verticalMicrotesla z: Double, verticalRate g: Double, seconds dt: Double) {
        guard z.isFinite, g.isFinite, dt > 0 else { return }
        guard started else {
            (meanVertical, meanRate, started) = (z, g, true)
            return
        }
        let gain = dt / (settings.timeConstantSeconds + dt)
        meanRate += (g - meanRate) * gain
        meanVertical += (z - meanVertical) * gain
        covariance += ((g - meanRate) * (z - meanVertical) - covariance) * gain
        rateVariance += ((g - meanRate) * (g - meanRate) - rateVariance) * gain
        guard rateVariance >= settings.leastRateVariance else { return }
        seconds = min(settings.largestSeconds, max(-settings.largestSeconds, covariance / rateVariance))
    }
}
