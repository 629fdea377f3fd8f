#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// Learns a small, bounded heading correction from the GPS track while the wearer walks
/// steadily: the leftover of the mount offset and the calibration that the compass alone
/// cannot see.
///
/// While a person walks a straight line, the direction their trunk faces averages to the
/// direction they move, which GPS measures independently of the compass (as the course over
/// ground, `track`). The gap between the two, seen again and again, is a bias. It is learnt
/// only when the comparison is fair: speed at least ``Settings/minimumSpeedMetersPerSecond``
/// (below it, track is noise), a small track error (`epd`), and no turning for
/// ``Settings/steadySeconds`` (a turn makes the trunk lead the track). Each fair fix moves the
/// bias a little (time constant ``Settings/timeConstantSeconds``), so gait sway and GPS noise
/// average out, and it never passes ``Settings/maximumBiasDegrees``: a bias that large means a
/// wrong mount or a bad calibration, which the wearer must fix, not the filter.
///
/// Pure: times are parameters, in seconds.
public struct CourseAssist: Sendable {
    /// When and how fast the bias is learnt.
    public struct Settings: Sendable, Hashable {
        /// Slowest walk that trains the bias, m/s.
        public var minimumSpeedMetersPerSecond = 1.0
        /// Largest track error (gpsd's `epd`, 95 %) that trains it, degrees; a fix without one
        /// does not train.
        public var maximumTrackErrorDegrees = 15.0
        /// Fastest turn that still counts as walking straight, degrees per second.
        public var maximumTurnRateDegreesPerSecond = 8.0
        /// How long the walk must have been steady before a fix trains the bias, seconds.
        public var steadySeconds = 3.0
        /// How slowly the bias follows what it sees, seconds of steady walking.
        public var timeConstantSeconds = 60.0
        /// The largest correction, degrees either way.
        public var maximumBiasDegrees = 20.0

        /// The defaults of DESIGN.md §1.
        public init() {}
    }

    /// The settings.
    public let settings: Settings
    /// Whether the assist learns at all (off when the device is hand-held).
    public let isEnabled: Bool
    /// The correction to add to the compass heading, degrees, in
    /// [−``Settings/maximumBiasDegrees``, ``Settings/maximumBiasDegrees``].
    public private(set) var biasDegrees = 0.0

    /// Since when the heading has turned no faster than the limit, seconds.
    private var straightSince: Double?
    /// The heading smoothed for the turn rate, as a unit vector, and its time.
    private var smoothed: (east: Double, north: Double, seconds: Double)?
    /// The smoothed heading the turn rate is measured from, and its time.
    private var reference: (degrees: Double, seconds: Double)?
    /// When the last fix came, seconds: a fix trains for the time since the one before.
    private var lastFixSeconds: Double?

    /// An assist with no bias yet.
    public init(settings: Settings = Settings(), isEnabled: Bool = true) {
        self.settings = settings
        self.isEnabled = isEnabled
    }

    /// Notes a compass heading (before correction) to follow how fast the wearer turns.
    ///
    /// - Parameters:
    ///   - degrees: The true heading, or nil when there is none (which ends a steady stretch).
    ///   - seconds: Its time.
    public mutating func observeHeading(_ degrees: Double?, at seconds: Double) {
        guard let degrees else {
            straightSince = nil
            smoothed = nil
            reference = nil
            return
        }
        // A walking trunk yaws a few degrees each step, at tens of degrees per second: the turn
        // rate is taken from the heading smoothed over about a second, which keeps turns and
        // drops the sway.
        let radians = degrees * .pi / 180
        let (east, north) = (sin(radians), cos(radians))
        var current = (east: east, north: north, seconds: seconds)
        if let last = smoothed, seconds > last.seconds {
            let weight = (seconds - last.seconds) / (Self.smoothingSeconds + seconds - last.seconds)
            current.east = last.east + weight * (east - last.east)
            current.north = last.north + weight * (north - last.north)
        }
        smoothed = current
        let heading = atan2(current.east, current.north) * 180 / .pi
        guard let reference else {
            self.reference = (heading, seconds)
            return
        }
        let elapsed = seconds - reference.seconds
        guard elapsed >= Self.rateIntervalSeconds else { return }
        let rate = abs(Angle.signedDifference(from: reference.degrees, to: heading)) / elapsed
        if rate > settings.maximumTurnRateDegreesPerSecond {
            straightSince = nil
        } else if straightSince == nil {
            straightSince = reference.seconds
        }
        self.reference = (heading, seconds)
    }

    /// The time constant of the heading smoothing for the turn rate, seconds.
    static let smoothingSeconds = 1.0
    /// The interval the turn rate is measured over, seconds.
    static let rateIntervalSeconds = 0.5

    /// Trains the bias from one fix when the walk is steady.
    ///
    /// - Parameters:
    ///   - speedMetersPerSecond: Speed over ground.
    ///   - trackDegrees: Course over ground, degrees from true north.
    ///   - trackErrorDegrees: Its 95 % error (`epd`).
    ///   - headingDegrees: The compass's true heading now, before correction.
    ///   - seconds: The fix's arrival time.
    /// - Returns: Whether the fix trained the bias.
    @discardableResult
    public mutating func observeFix(
        speedMetersPerSecond: Double?, trackDegrees: Double?, trackErrorDegrees: Double?, headingDegrees: Double?,
        at seconds: Double
    ) -> Bool {
        defer { lastFixSeconds = seconds }
        guard isEnabled, let speed = speedMetersPerSecond, speed >= settings.minimumSpeedMetersPerSecond,
            let track = trackDegrees, let trackError = trackErrorDegrees, trackError <= settings.maximumTrackErrorDegrees,
            let heading = headingDegrees, let since = straightSince, seconds - since >= settings.steadySeconds
        else { return false }
        let step = min(1, (seconds - (lastFixSeconds ?? seconds - 1)) / settings.timeConstantSeconds)
        let error = Angle.signedDifference(from: Angle.normalized(heading + biasDegrees), to: track)
        let limit = settings.maximumBiasDegrees
        biasDegrees = min(limit, max(-limit, biasDegrees + step * error))
        return true
    }

    /// Forgets the bias, e.g. after a new calibration, which changes what it corrects.
    public mutating func reset() {
        biasDegrees = 0
        straightSince = nil
        smoothed = nil
        reference = nil
        lastFixSeconds = nil
    }
}
