#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// The error model of a consumer GNSS receiver in open sky, as a pure value: given where the
/// wearer truly is, one fix per epoch with the errors a real receiver makes. `waypointd
/// --simulate` steps it once a second on its sampling thread; tests call `nextFix(truth:)`
/// directly, without sleeping.
///
/// Position error is mostly a slowly wandering offset (atmosphere and multipath change over tens
/// of seconds, so consecutive fixes agree with each other much better than with the truth) plus a
/// little white noise. The reported `eph` wanders slowly between its bounds, and the simulated
/// error follows it: `eph` is the 95 % radius of the horizontal error (gpsd is vague about the
/// confidence, `reference/gpsd.md`; the guidance code reads it as 95 %).
///
/// Deterministic for a seed.
public struct SimulatedGPSReceiver: Sendable {
    /// The truth at one epoch: what the walker is doing.
    public struct Truth: Sendable, Hashable {
        /// Where the wearer is.
        public var coordinate: Coordinate
        /// True speed over ground, m/s.
        public var speedMetersPerSecond: Double
        /// True course over ground, degrees from true north; nil when standing, where a course
        /// means nothing.
        public var trackDegrees: Double?

        /// A truth from its parts.
        public init(coordinate: Coordinate, speedMetersPerSecond: Double = 0, trackDegrees: Double? = nil) {
            self.coordinate = coordinate
            self.speedMetersPerSecond = speedMetersPerSecond
            self.trackDegrees = trackDegrees
        }

        /// The walker's position, with its walking speed and heading as course while it walks.
        public init(walker: SimulatedWalker) {
            coordinate = walker.position
            if walker.activity == .walking {
                speedMetersPerSecond = walker.walkingSpeedMetersPerSecond
                trackDegrees = walker.yawDegrees
            } else {
                speedMetersPerSecond = 0
                trackDegrees = nil
            }
        }
    }

    /// The error model. Defaults suit a phone-class receiver worn outdoors.
    public struct Settings: Sendable, Hashable {
        /// Smallest reported `eph`, metres. Default 3.
        public var minimumHorizontalErrorMeters = 3.0
        /// Largest reported `eph`, metres. Default 5.
        public var maximumHorizontalErrorMeters = 5.0
        /// How long `eph` takes to swing from one bound to the other and back, s. Default 600.
        public var horizontalErrorPeriodSeconds = 600.0
        /// Correlation time of the wandering offset, s. Default 60 (the offset forgets 1/e of
        /// itself per minute).
        public var offsetCorrelationSeconds = 60.0
        /// White position noise per axis (north, east), 1 σ, metres. Default 0.4: the jitter
        /// between consecutive fixes. Part of the error budget `eph` sets, not added to it.
        public var whiteNoiseMeters = 0.4
        /// Speed noise, 1 σ, m/s. Default 0.1.
        public var speedNoiseMetersPerSecond = 0.1
        /// Course noise while moving, 1 σ, degrees. Default 2.
        public var trackNoiseDegrees = 2.0
        /// Height above the ellipsoid the wearer walks at, metres. Default 100.
        public var altitudeHAEMeters = 100.0
        /// Satellites in the solution. Default 9.
        public var satellitesUsed = 9

        /// The defaults.
        public init() {}
    }

    /// The 95 % radius of a circular 2-D normal distribution in units of its per-axis σ:
    /// √(−2 ln 0.05).
    public static let radius95PerSigma = (-2 * log(0.05)).squareRoot()
    /// The two-sided 95 % bound of a 1-D normal in σ, used to report `epd`.
    static let bound95PerSigma = 1.96
    /// Vertical error is about 1.5 times the horizontal per-axis error for GNSS geometry.
    static let verticalErrorRatio = 1.5
    /// Metres of 95 % horizontal error per unit of HDOP: 2 × a 2 m user range error, for an
    /// HDOP near 1 at the default `eph`.
    static let metersPerHDOP = 4.0
    /// Metres per degree of latitude, and of longitude at the equator: a local flat Earth is
    /// plenty for offsets of a few metres.
    static let metersPerDegreeLatitude = 111_132.0
    static let metersPerDegreeLongitudeAtEquator = 111_320.0

    /// The error model.
    public let settings: Settings
    /// When epoch 0 is.
    public let startTime: UTCTime
    /// The next fix's epoch: seconds since `startTime`.
    public private(set) var epoch = 0

    private var random: SplitMix64
    /// The offset's state, north and east, in units of its current σ (stationary, variance 1).
    private var normalizedOffset: (north: Double, east: Double)
    /// Where in its cycle `eph` starts, radians: seeded, so runs differ but replay.
    private let horizontalErrorPhase: Double

    /// A receiver whose first fix is at `startTime`.
    /// - Parameters:
    ///   - startTime: the time of the first fix.
    ///   - settings: the error model.
    ///   - seed: fixes the noise.
    public init(startTime: UTCTime, settings: Settings = Settings(), seed: UInt64) {
        self.startTime = startTime
        self.settings = settings
        var random = SplitMix64(seed: seed)
        // Start the offset from its stationary distribution, so the first minute is as noisy
        // as the rest.
        normalizedOffset = (random.gaussian(), random.gaussian())
        horizontalErrorPhase = Double.random(in: 0..<(2 * .pi), using: &random)
        self.random = random
    }

    /// The `eph` reported at an epoch: between the bounds, wandering sinusoidally, metres.
    /// - Parameter epoch: seconds since `startTime`.
    public func horizontalErrorMeters(atEpoch epoch: Int) -> Double {
        let middle = (settings.minimumHorizontalErrorMeters + settings.maximumHorizontalErrorMeters) / 2
        let amplitude = (settings.maximumHorizontalErrorMeters - settings.minimumHorizontalErrorMeters) / 2
        guard settings.horizontalErrorPeriodSeconds > 0 else { return middle }
        return middle
            + amplitude * sin(2 * .pi * Double(epoch) / settings.horizontalErrorPeriodSeconds + horizontalErrorPhase)
    }

    /// Lets one epoch pass without a fix, so the fixes after a silence carry the right time.
    public mutating func skipEpoch() { epoch += 1 }

    /// The next 1 Hz fix: mode 3, time `startTime + epoch` seconds, the truth's position moved by
    /// the error model, and speed and course when the truth has them.
    /// - Parameter truth: where the wearer is now.
    /// - Returns: the fix; advances `epoch` by one.
    public mutating func nextFix(truth: Truth) -> Fix {
        defer { epoch += 1 }
        let eph = horizontalErrorMeters(atEpoch: epoch)
        let sigma = eph / Self.radius95PerSigma
        // The white noise is part of the budget: the offset gets what is left of the variance.
        let white = min(settings.whiteNoiseMeters, sigma)
        let offsetSigma = (sigma * sigma - white * white).squareRoot()

        // First-order Gauss–Markov step, one second long: keeps unit variance.
        if epoch > 0 {
            let decay = settings.offsetCorrelationSeconds > 0 ? exp(-1 / settings.offsetCorrelationSeconds) : 0
            let drive = (1 - decay * decay).squareRoot()
            normalizedOffset.north = decay * normalizedOffset.north + drive * random.gaussian()
            normalizedOffset.east = decay * normalizedOffset.east + drive * random.gaussian()
        }
        let northMeters = offsetSigma * normalizedOffset.north + white * random.gaussian()
        let eastMeters = offsetSigma * normalizedOffset.east + white * random.gaussian()

        var fix = Fix(
            mode: .threeDimensional,
            time: UTCTime(seconds: startTime.seconds + Int64(epoch), nanoseconds: Int64(startTime.nanoseconds)),
            coordinate: Self.offset(truth.coordinate, northMeters: northMeters, eastMeters: eastMeters))
        fix.horizontalErrorMeters = eph
        fix.hdop = eph / Self.metersPerHDOP
        fix.satellitesUsed = settings.satellitesUsed
        fix.altitudeHAEMeters = settings.altitudeHAEMeters + Self.verticalErrorRatio * sigma * random.gaussian()
        // A receiver reports a small positive speed when standing, never a negative one.
        fix.speedMetersPerSecond = abs(truth.speedMetersPerSecond + settings.speedNoiseMetersPerSecond * random.gaussian())
        if let track = truth.trackDegrees {
            fix.trackDegrees = Angle.normalized(track + settings.trackNoiseDegrees * random.gaussian())
            fix.trackErrorDegrees = Self.bound95PerSigma * settings.trackNoiseDegrees
        }
        return fix
    }

    /// `coordinate` moved by a few metres north and east.
    static func offset(_ coordinate: Coordinate, northMeters: Double, eastMeters: Double) -> Coordinate {
        let metersPerDegreeLongitude = metersPerDegreeLongitudeAtEquator * cos(coordinate.latitudeDegrees * .pi / 180)
        return Coordinate(
            uncheckedLatitudeDegrees: coordinate.latitudeDegrees + northMeters / metersPerDegreeLatitude,
            // Near a pole a degree of longitude shrinks to nothing: keep the step finite.
            longitudeDegrees: coordinate.longitudeDegrees + eastMeters / max(metersPerDegreeLongitude, 1))
    }
}
