#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import Heading

/// The guidance state machine: fixes, headings and commands in, the wearer's cue and patterns
/// out. A value that returns actions; the daemon performs them. Pure: every event carries its
/// time in seconds, so tests run on a manual clock and replay is deterministic.
///
/// States: `idle` (no destination) · `no-fix` (no fix, a stale fix, or one with too large an
/// error) · `no-heading` (the heading is unreliable, or none came for `headingTimeoutSeconds`) ·
/// `guiding` · `arrived` (within max(arrival radius, 2·eph) on two consecutive fixes). The motor
/// is silent in every state but `guiding`, apart from patterns. Being without a fix or a heading
/// with a destination set plays a warning, repeated every `warningIntervalSeconds` while it
/// lasts, except in the first `settlingSeconds` after the destination was set: the sensors speed
/// up then and the heading settles, and a warning right after `accepted` would be a false one.
/// A destination set with no fix at all therefore warns `gps-lost` once settling is over. The
/// same holds after the daemon itself stalled (no event for `stallSeconds`: the process was
/// stopped, the machine suspended): every reading is old then only because nothing ran, and the
/// sensors answer within moments; a problem still there after settling is warned of.
public struct Navigator: Sendable {
    /// The states, named as `status` reports them.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case idle
        case noFix = "no-fix"
        case noHeading = "no-heading"
        case guiding
        case arrived
    }

    /// What the daemon must do.
    public enum Action: Sendable, Hashable {
        /// Drive the motor with this cue from now on (nil: silent).
        case cue(HapticCue?)
        /// Play a pattern.
        case play(HapticPattern)
    }

    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// A fix older than this is stale, seconds. Default 3.
        public var fixTimeoutSeconds = 3.0
        /// A heading older than this cannot guide, seconds: the IMU has stopped delivering (a
        /// bus fault, a silent chip) and the wearer may have turned since. Default 1: ten times
        /// the longest the daemon waits between samples while guiding (a FIFO burst every 0.1 s),
        /// so a busy system does not raise false warnings, and as long as the IMU reader waits
        /// before it calls a silent chip failed.
        public var headingTimeoutSeconds = 1.0
        /// A fix whose horizontal error (eph) is above this cannot guide, metres. Default 50.
        public var maximumPositionErrorMeters = 50.0
        /// Arrived within this distance (or 2·eph if larger), metres. Default 15.
        public var arrivalRadiusMeters = 15.0
        /// Repeat the warning this often while guidance is lost, seconds. Default 10.
        public var warningIntervalSeconds = 10.0
        /// After a destination is set, no warning plays for this long, seconds: a heading
        /// sampled slowly while idle settles within it once sampling speeds up. Default 3.
        public var settlingSeconds = 3.0
        /// No event at all for this long means the daemon did not run (it hears from its
        /// sensors at least every 2 s, idle, and a fix a second), and it settles again, seconds.
        /// Default 3.
        public var stallSeconds = 3.0
        /// Closer to the destination than this, the bearing to it means nothing (at the point
        /// itself a geodesic's azimuth is arbitrary), metres. Default 1.
        public var undefinedBearingMeters = 1.0
        /// The zone never widens beyond this, degrees. Default 60.
        public var maximumZoneDegrees = 60.0
        /// The haptic rule.
        public var rule = HapticRule()

        /// The defaults.
        public init() {}
    }

    /// Where the wearer stands relative to the destination, for `status`.
    public struct Course: Sendable, Hashable {
        /// Initial bearing to the destination, degrees from true north, [0, 360); nil at the
        /// destination itself (closer than `undefinedBearingMeters`) and once arrived.
        public var bearingDegrees: Double?
        /// Distance, metres.
        public var distanceMeters: Double
        /// Bearing minus heading, (−180, 180]; positive means the destination is to the right;
        /// nil without a heading or a bearing.
        public var errorDegrees: Double?
        /// The zone in use, degrees (wider than the setting when GPS error makes the bearing uncertain).
        public var zoneDegrees: Double
    }

    /// Why the latest fix cannot guide, for `status`.
    public enum FixProblem: String, Sendable, Hashable {
        /// The receiver reports no position (mode 1).
        case noPosition = "no-position"
        /// Older than `fixTimeoutSeconds`.
        case stale
        /// Its horizontal error is above `maximumPositionErrorMeters`.
        case imprecise
    }

    /// The latest fix's age and what keeps it from guiding.
    public struct FixStanding: Sendable, Hashable {
        /// Seconds since it came.
        public var ageSeconds: Double
        /// Why it cannot guide; nil when it can.
        public var problem: FixProblem?
    }

    public let settings: Settings
    /// The current state.
    public private(set) var state: State = .idle
    /// The destination, if any.
    public private(set) var destination: Coordinate?
    /// Whether the motor is muted (no cues, no patterns).
    public private(set) var isMuted = false
    /// The latest course, when there is a fix and a destination.
    public private(set) var course: Course?
    /// The latest cue sent.
    public private(set) var cue: HapticCue?
    /// How far the heading is from the zone's edge, inside or out, degrees; nil unless guiding
    /// with a heading. Near it the next samples may start or stop the motor, and the daemon
    /// reads each as it comes rather than in bursts.
    public var zoneEdgeDistanceDegrees: Double? {
        guard state == .guiding, let course, let error = course.errorDegrees else { return nil }
        return abs(abs(error) - course.zoneDegrees)
    }
    /// The destination's arrival radius, metres: its own, or the settings'.
    public private(set) var destinationRadiusMeters: Double

    private var fix: Fix?
    private var fixSeconds = -Double.infinity
    /// The path from the latest fix to the destination. It changes only with a fix or a new
    /// destination, so it is solved then, not on every heading sample (50 a second).
    private var path: GeodesicInverse?
    private var headingReliable = false
    private var headingDegrees: Double?
    private var headingSeconds = -Double.infinity
    private var arrivalCount = 0
    private var lastWarningSeconds: Double?
    /// When the destination was set, seconds.
    private var destinationSeconds = -Double.infinity
    /// The latest event's time, and when events came again after a stall.
    private var lastEventSeconds = -Double.infinity
    private var resumedSeconds = -Double.infinity

    /// A navigator with no destination.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        destinationRadiusMeters = settings.arrivalRadiusMeters
    }

    // MARK: - Commands

    /// Sets a destination: plays a pattern saying so and starts guiding when it can.
    ///
    /// - Parameters:
    ///   - arrivalRadiusMeters: This destination's own arrival radius, metres (a place's, a
    ///     route waypoint's); nil for ``Settings/arrivalRadiusMeters``.
    ///   - announcing: The pattern that says so: `accepted` for a destination the wearer set,
    ///     `waypoint-reached` when a route moves on by itself.
    public mutating func setDestination(
        _ coordinate: Coordinate, arrivalRadiusMeters: Double? = nil, announcing: HapticPattern = .destinationAccepted,
        at seconds: Double
    ) -> Actions {
        destination = coordinate
        destinationRadiusMeters = arrivalRadiusMeters ?? settings.arrivalRadiusMeters
        refreshPath()
        arrivalCount = 0
        // Arrival belongs to the old destination; `update` keeps `.arrived` once reached.
        if state == .arrived { state = .idle }
        destinationSeconds = seconds
        lastWarningSeconds = nil
        var actions = Actions()
        if !isMuted { actions.append(.play(announcing)) }
        actions += update(at: seconds)
        return actions
    }

    /// Clears the destination: silence.
    public mutating func clearDestination(at seconds: Double) -> Actions {
        destination = nil
        path = nil
        course = nil
        return update(at: seconds)
    }

    /// Mutes or unmutes the motor.
    public mutating func setMuted(_ muted: Bool, at seconds: Double) -> Actions {
        isMuted = muted
        cue = nil
        return update(at: seconds, forceCue: true)
    }

    // MARK: - Events

    /// A fix from the GPS.
    public mutating func receive(_ newFix: Fix, at seconds: Double) -> Actions {
        noteEvent(at: seconds)
        fix = newFix
        fixSeconds = seconds
        refreshPath()
        var actions = Actions()
        if let path, usableFix(at: seconds) != nil {
            let radius = max(destinationRadiusMeters, 2 * (newFix.horizontalErrorMeters ?? 0))
            arrivalCount = path.distanceMeters <= radius ? arrivalCount + 1 : 0
        }
        actions += update(at: seconds)
        return actions
    }

    /// A heading estimate from the compass (one per IMU sample).
    public mutating func receive(_ estimate: HeadingEstimate, at seconds: Double) -> Actions {
        noteEvent(at: seconds)
        headingReliable = estimate.isReliable
        headingDegrees = estimate.trueDegrees
        headingSeconds = seconds
        return update(at: seconds)
    }

    /// Time passing: stale fixes and headings, repeated warnings.
    public mutating func tick(at seconds: Double) -> Actions {
        noteEvent(at: seconds)
        return update(at: seconds)
    }

    /// The latest fix's age and whether it can guide, at `seconds`; nil before the first fix.
    public func fixStanding(at seconds: Double) -> FixStanding? {
        guard let fix else { return nil }
        let age = max(0, seconds - fixSeconds)
        let problem: FixProblem? =
            !fix.hasPosition ? .noPosition
            : age > settings.fixTimeoutSeconds ? .stale
            : (fix.horizontalErrorMeters ?? 0) > settings.maximumPositionErrorMeters ? .imprecise : nil
        return FixStanding(ageSeconds: age, problem: problem)
    }

    // MARK: - The machine

    private func usableFix(at seconds: Double) -> Fix? {
        guard let fix, fix.hasPosition, seconds - fixSeconds <= settings.fixTimeoutSeconds else { return nil }
        if let eph = fix.horizontalErrorMeters, eph > settings.maximumPositionErrorMeters { return nil }
        return fix
    }

    private mutating func refreshPath() {
        guard let destination, let here = fix?.coordinate else {
            path = nil
            return
        }
        path = Geodesic.wgs84.inverse(from: here, to: destination)
    }

    /// A sensor event or a tick at `seconds`: after none for `stallSeconds`, the daemon stalled
    /// and settles again. (Commands do not count: they come whenever a person sends them.)
    private mutating func noteEvent(at seconds: Double) {
        if lastEventSeconds.isFinite, seconds - lastEventSeconds > settings.stallSeconds { resumedSeconds = seconds }
        lastEventSeconds = max(lastEventSeconds, seconds)
    }

    private mutating func update(at seconds: Double, forceCue: Bool = false) -> Actions {
        var actions = Actions()
        let previous = state
        var newCue: HapticCue?
        if destination != nil {
            if usableFix(at: seconds) != nil, let path {
                let arrived = state == .arrived || arrivalCount >= 2
                let bearing =
                    arrived || path.distanceMeters < settings.undefinedBearingMeters
                    ? nil : Angle.normalized(path.initialAzimuthDegrees)
                let eph = fix?.horizontalErrorMeters ?? 0
                // When the position error makes the bearing itself that uncertain, widen the zone.
                let uncertainty = path.distanceMeters > 0 ? atan(eph / path.distanceMeters) * 180 / .pi : 90
                let zone = min(settings.maximumZoneDegrees, max(settings.rule.zoneDegrees, uncertainty))
                let error = bearing.flatMap { bearing in headingDegrees.map { Angle.signedDifference(from: $0, to: bearing) } }
                course = Course(bearingDegrees: bearing, distanceMeters: path.distanceMeters, errorDegrees: error, zoneDegrees: zone)
                if arrived {
                    state = .arrived
                } else if !headingReliable || seconds - headingSeconds > settings.headingTimeoutSeconds {
                    state = .noHeading
                } else {
                    state = .guiding
                    if let error { newCue = settings.rule.cue(alignmentErrorDegrees: error, zoneDegrees: zone) }
                }
            } else {
                state = state == .arrived ? .arrived : .noFix
            }
        } else {
            state = .idle
        }
        if isMuted { newCue = nil }

        if state == .guiding { lastWarningSeconds = nil }
        if state == .arrived && previous != .arrived && !isMuted {
            actions.append(.play(.arrived))
        }
        let isSettling = seconds - max(destinationSeconds, resumedSeconds) < settings.settlingSeconds
        if (state == .noFix || state == .noHeading) && !isMuted && !isSettling {
            let due = lastWarningSeconds.map { seconds - $0 >= settings.warningIntervalSeconds } ?? true
            if due || state != previous {
                actions.append(.play(state == .noFix ? .gpsLost : .headingUnreliable))
                lastWarningSeconds = seconds
            }
        }
        if newCue != cue || forceCue || state != previous {
            cue = newCue
            actions.prepend(.cue(newCue))
        }
        return actions
    }
}
