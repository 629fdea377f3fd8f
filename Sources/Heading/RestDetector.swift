/// Decides when the device lies still, from how little the gyroscope and the accelerometer
/// depart from their own recent means: the moments when the gyroscope reads nothing but its
/// bias. (VQF's rest detection, Laidig and Seel 2023, §3.3; its thresholds.)
public struct RestDetector: Sendable {
    /// Thresholds and timing, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// Time constant of the means the samples are compared with, seconds. Default 0.5 s.
        public var filterTimeConstantSeconds = 0.5
        /// Largest departure of the angular rate from its mean at rest, °/s. Default 2 °/s.
        public var gyroscopeThresholdDegreesPerSecond = 2.0
        /// Largest departure of the specific force from its mean at rest, g. Default 0.05 g
        /// (about 0.5 m/s²).
        public var accelerometerThresholdG = 0.05
        /// How long both must stay within their thresholds before the device counts as at rest,
        /// seconds. Default 1.5 s: long enough that a slow, steady turn is not taken for rest.
        public var minimumSeconds = 1.5
        /// The largest mean angular rate that can still be rest, °/s: a gyroscope reading more
        /// is turning, whatever its steadiness. Default 2 °/s, the bias a MEMS gyroscope can have.
        public var largestBiasDegreesPerSecond = 2.0

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    private var gyroscopeMean: LowPassFilter
    private var accelerometerMean: LowPassFilter
    private var stillSeconds = 0.0

    /// A detector that has seen nothing yet.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        gyroscopeMean = LowPassFilter(timeConstantSeconds: settings.filterTimeConstantSeconds)
        accelerometerMean = LowPassFilter(timeConstantSeconds: settings.filterTimeConstantSeconds)
    }

    /// Whether the device has been still for at least `minimumSeconds`.
    public var isResting: Bool { stillSeconds >= settings.minimumSeconds }

    /// The mean angular rate, °/s: at rest, the gyroscope's bias.
    public var meanRateDegreesPerSecond: Vector3 { gyroscopeMean.value ?? .zero }

    /// Takes one sample `seconds` after the previous one.
    public mutating func update(angularRateDegreesPerSecond rate: Vector3, accelerationG: Vector3, seconds: Double) {
        let meanRate = gyroscopeMean.update(rate, seconds: seconds)
        let meanAcceleration = accelerometerMean.update(accelerationG, seconds: seconds)
        let gyroscopeLimit = settings.gyroscopeThresholdDegreesPerSecond
        let accelerometerLimit = settings.accelerometerThresholdG
        let biasLimit = settings.largestBiasDegreesPerSecond
        let still =
            (rate - meanRate).dot(rate - meanRate) <= gyroscopeLimit * gyroscopeLimit
            && (accelerationG - meanAcceleration).dot(accelerationG - meanAcceleration)
                <= accelerometerLimit * accelerometerLimit
            && meanRate.dot(meanRate) <= biasLimit * biasLimit
        stillSeconds = still ? stillSeconds + seconds : 0
    }
}
