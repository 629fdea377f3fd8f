import ControlProtocol
import Geodesy
import Geomagnetism
import Guidance
import Heading

/// The daemon's decisions as one value: everything it knows lives here once, and every event (a
/// sample, a fix, time passing, a request, an IMU or gpsd found or lost, a trail append done)
/// comes in with the time it happened and goes out as what to do (``Effect``): patterns and cues
/// for the player, state files to save, trail points to append, lines to log, events to record.
/// No IO, no clock, no lock, no wire format: ``DaemonCore`` performs the effects and builds the
/// replies from this value, and the tests drive it on manual time.
///
/// Each fact is held once: the route by its ``RouteFollower`` (its saved form derived when it is
/// saved), the wearer's mute by ``isMuted`` (the navigator holds the effective one, which also
/// pauses for a calibration), the calibration in use by ``calibration`` (the heading estimator
/// applies it), the destination by ``target``. What is saved is ``persistent``, derived.
///
/// The IMU path (``imu(_:at:)``, ``tick(at:)``) returns the navigator's fixed-size actions and
/// must not allocate: it runs 50 times a second. A fix (once a second) allocates only when it
/// moves a route on.
public struct DaemonState: Sendable {
    /// What the wearer is being guided to.
    public enum Target: Sendable, Equatable {
        /// Nothing: idle.
        case none
        /// One destination (a coordinate, a recent one, a place).
        case destination(SavedDestination)
        /// A route, waypoint by waypoint.
        case route(ActiveRoute)
    }

    /// A route being walked: its name and its follower, which holds the waypoints and how far
    /// the wearer has come.
    public struct ActiveRoute: Sendable, Equatable {
        /// The route's name (the GPX file's), if it has one.
        public var name: String?
        /// The waypoints and the one being walked to.
        public var follower: RouteFollower
        /// The walk over the streets the waypoints come from, when the route is one
        /// (``DaemonState/startWalk(_:to:profile:at:utcSeconds:)``); a walk is not kept across restarts,
        /// its waypoints are.
        public var walk: ActiveWalk? = nil
    }

    /// The calibration the heading estimator applies.
    public enum CalibrationInUse: Sendable, Equatable {
        /// None: the heading is unreliable until the wearer calibrates.
        case none
        /// One that comes with the board and is not saved (the simulated board, which has no
        /// hard iron).
        case builtIn(MagneticCalibration)
        /// The wearer's, as saved in `calibration.json`.
        case saved(SavedCalibration)

        /// The saved one, if that is what is in use.
        public var saved: SavedCalibration? {
            if case .saved(let saved) = self { saved } else { nil }
        }

        /// The correction itself; nil without one.
        public var correction: MagneticCalibration? {
            switch self {
            case .none: nil
            case .builtIn(let calibration): calibration
            case .saved(let saved): saved.calibration
            }
        }
    }

    /// The pipeline: heading, magnetic model, navigator.
    public internal(set) var pipeline: NavigationPipeline
    /// What the wearer is guided to.
    public internal(set) var target: Target = .none
    /// The recent destinations, newest first.
    public internal(set) var recent: RecentDestinations
    /// The wearer's named places.
    public internal(set) var places: PlaceBook
    /// Whether the wearer muted guidance vibration (kept across restarts).
    public internal(set) var isMuted: Bool
    /// The calibration in use.
    public internal(set) var calibration: CalibrationInUse
    /// The samples of the calibration under way; nil when none is.
    public internal(set) var calibrationFit: CalibrationFit? {
        didSet { if calibrationFit == nil || oldValue == nil { calibrationFilledOctants = 0 } }
    }
    /// The octants the calibration under way has filled so far (``CalibrationFit/filledOctants``):
    /// each new one ticks the motor once.
    private var calibrationFilledOctants: UInt8 = 0
    /// How often, in samples, the calibration's octants are counted (a pass over every sample):
    /// half a second at 50 Hz.
    static let calibrationProgressSamples = 25
    /// The breadcrumb trail: which fixes are kept, those waiting for the next append.
    public internal(set) var trail: TrailLog
    /// The latest fixes, for `place mark`.
    var recentFixes = RecentFixes()
    /// The time of the latest event, seconds since start: events never go back in time.
    public private(set) var lastSeconds = 0.0
    /// What went wrong at start (a state file set aside), one sentence each.
    public let startProblems: [String]
    /// Why no IMU can be read, while none can.
    public private(set) var imuProblem: String?
    /// The IMU in use and its counters.
    public private(set) var imu: IMUInUse?
    /// Since when (the core's seconds) the IMU in use has not answered: its last good read,
    /// while every read since has failed; nil while it answers.
    public private(set) var imuSilentSinceSeconds: Double?
    /// Why gpsd cannot be read, while it cannot.
    public private(set) var gpsProblem: String?

    /// The state at start: what was loaded, not yet acted on (``start(at:)`` restores it).
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline, without a calibration (``start(at:)`` applies
    ///     `calibration`).
    ///   - saved: What was loaded from the state directory.
    ///   - builtInCalibration: The board's own calibration when nothing is saved (the simulated
    ///     board's identity); nil on hardware.
    ///   - trail: The trail, sized to what `trail.log` already holds.
    ///   - startProblems: What loading found wrong, one sentence each.
    public init(
        pipeline: NavigationPipeline, saved: PersistentState, builtInCalibration: MagneticCalibration? = nil,
        trail: TrailLog = TrailLog(), startProblems: [String] = []
    ) {
        self.pipeline = pipeline
        recent = saved.recent
        places = saved.places
        isMuted = saved.muted
        calibration = saved.calibration.map { .saved($0) } ?? builtInCalibration.map { .builtIn($0) } ?? .none
        self.trail = trail
        self.startProblems = startProblems
        if let route = saved.route {
            target = .route(ActiveRoute(name: route.name, follower: Self.follower(for: route, settings: pipeline.navigator.settings)))
        } else if let destination = saved.destination {
            target = .destination(destination)
        }
    }

    /// What is kept across restarts, derived from the facts.
    public var persistent: PersistentState {
        PersistentState(
            destination: target.destination, recent: recent, muted: isMuted, calibration: calibration.saved,
            route: target.savedRoute, places: places)
    }

    // MARK: - Sensors

    /// One IMU sample at `seconds` (also collected by a calibration under way). A time before
    /// the latest event's is taken as the latest's. No allocation.
    ///
    /// - Returns: The navigator's actions, the event as it should be recorded, and what the
    ///   pipeline concluded (a recording's `live` field).
    public mutating func imu(_ sample: IMUSample, at seconds: Double) -> (
        actions: Navigator.Actions, record: RecordingEvent, output: NavigationPipeline.Output?
    ) {
        calibrationFit?.add(sample.magneticMicrotesla)
        let event = RecordingEvent(seconds: advance(to: seconds), kind: .imu(sample))
        var (actions, output) = pipeline.handle(event)
        // By samples added, not kept: once the fit's buffer is full its count stays put, and
        // a pass over 3000 samples would come with every sample.
        if let fit = calibrationFit, fit.added % Self.calibrationProgressSamples == 0 {
            // A direction newly filled: one tick (several at once are one).
            let filled = fit.filledOctants
            if filled & ~calibrationFilledOctants != 0 { actions.append(.play(.calibrationProgress)) }
            calibrationFilledOctants |= filled
        }
        return (actions, event, output)
    }

    /// What a fix did: the navigator's actions, what to record, and what else to do.
    public struct FixOutcome: Sendable {
        /// The navigator's actions.
        public var actions = Navigator.Actions()
        /// The route's next waypoint as a `destination` event, recorded before the fix, when
        /// the fix moved the route on.
        public var waypointRecord: RecordingEvent?
        /// The fix as it should be recorded.
        public var record: RecordingEvent
        /// When the route moved on: the line to log, the world told, the progress saved.
        /// Empty (no allocation) otherwise.
        public var effects: [Effect] = []
        /// The trail points to append now, once a minute or so.
        public var trailAppend: TrailLog.Append?
    }

    /// One fix at `seconds`: kept for `place mark` and the trail, given to the route (which,
    /// when it moves on, sets the next waypoint first, so that the navigator never arrives at a
    /// waypoint that is not the last), then to the navigator.
    public mutating func fix(_ fix: Fix, at seconds: Double) -> FixOutcome {
        let time = advance(to: seconds)
        var outcome = FixOutcome(record: RecordingEvent(seconds: time, kind: .fix(fix)))
        outcome.trailAppend = trail.take(fix, at: time)
        if fix.hasPosition, let here = fix.coordinate {
            recentFixes.add(PositionAverage.Sample(coordinate: here, errorMeters: fix.horizontalErrorMeters, seconds: time))
            followRoute(fix, at: time, into: &outcome)
            watchWalk(fix, here: here, at: time, into: &outcome)
        }
        let (actions, _) = pipeline.handle(outcome.record)
        outcome.actions += actions
        return outcome
    }

    /// Time passing: stale fixes, repeated warnings.
    public mutating func tick(at seconds: Double) -> Navigator.Actions { pipeline.tick(at: advance(to: seconds)) }

    /// Whether the heading matters now: a destination is set, or a calibration is collecting.
    public var needsHeading: Bool { pipeline.navigator.destination != nil || calibrationFit != nil }

    /// The guidance state.
    public var state: Navigator.State { pipeline.navigator.state }

    mutating func advance(to seconds: Double) -> Double {
        lastSeconds = max(seconds, lastSeconds)
        return lastSeconds
    }

    // MARK: - What is missing

    /// No IMU can be read, and why; nil once one is.
    public mutating func imuMissing(_ problem: String?) {
        imuProblem = problem
        if problem != nil { imu = nil }
    }

    /// The IMU in use, with its counters.
    public mutating func imuInUse(_ report: IMUInUse) {
        imuProblem = nil
        imu = report
    }

    /// The IMU in use stopped answering (every read failing since its last good read at
    /// `seconds`); nil once a read works again.
    public mutating func imuSilent(since seconds: Double?) { imuSilentSinceSeconds = seconds }

    /// gpsd cannot be read, and why; nil once it can.
    public mutating func gpsMissing(_ problem: String?) { gpsProblem = problem }

    // MARK: - Start

    /// At start: the calibration in use recorded (so a replay starts from it), the mute state
    /// applied, the saved route or destination restored.
    public mutating func start(at seconds: Double) -> [Effect] {
        var effects: [Effect] = []
        if let correction = calibration.correction { effects += handle(.calibration(correction), at: seconds) }
        effects += applyMute(at: seconds)
        switch target {
        case .none:
            break
        case .destination(let destination):
            effects.append(.log(.info, "destination restored", ["destination": destination.description]))
            effects += guide(to: destination, announcing: .destinationAccepted, at: seconds)
        case .route(let route):
            let count = route.follower.waypoints.count
            effects.append(
                .log(
                    .info, "route restored",
                    ["route": route.name ?? "", "waypoint": "\(min(route.follower.index + 1, count)) of \(count)"]))
            effects += guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        }
        return effects
    }

    // MARK: - Helpers

    /// What the wearer is being guided to: the route's waypoint (its last, once finished), or
    /// the destination.
    public var currentDestination: SavedDestination? {
        switch target {
        case .none: nil
        case .destination(let destination): destination
        case .route(let route):
            route.follower.waypoints.isEmpty
                ? nil : SavedDestination(route.follower.waypoints[min(route.follower.index, route.follower.waypoints.count - 1)])
        }
    }

    /// Guides to `destination` (nil: stops), announced by `pattern`: the world told, the
    /// navigator's actions as effects, then the event recorded.
    mutating func guide(to destination: SavedDestination?, announcing pattern: HapticPattern, at seconds: Double) -> [Effect] {
        guard let destination else { return [.destinationChanged(nil)] + handle(.destination(nil, name: nil), at: seconds) }
        let event = RecordingEvent(
            seconds: advance(to: seconds), kind: .destination(destination.coordinate, name: destination.name))
        let actions = pipeline.guide(
            to: destination.coordinate, arrivalRadiusMeters: destination.arrivalRadiusMeters, announcing: pattern,
            at: event.seconds)
        var effects: [Effect] = [.destinationChanged(destination.coordinate)]
        effects += actions.map(Effect.init)
        effects.append(.record(event))
        return effects
    }

    /// A pipeline event from a request: the navigator's actions as effects, then the event
    /// recorded.
    mutating func handle(_ kind: RecordingEvent.Kind, at seconds: Double) -> [Effect] {
        let event = RecordingEvent(seconds: advance(to: seconds), kind: kind)
        let (actions, _) = pipeline.handle(event)
        var effects = actions.map(Effect.init)
        effects.append(.record(event))
        return effects
    }

    /// Gives the navigator the effective mute state when it changes: the wearer's choice, or
    /// paused while they turn the device to calibrate (the heading means nothing then).
    mutating func applyMute(at seconds: Double) -> [Effect] {
        let muted = isMuted || calibrationFit != nil
        guard muted != pipeline.navigator.isMuted else { return [] }
        return handle(.muted(muted), at: seconds)
    }

    static func follower(for route: SavedRoute, settings: Navigator.Settings) -> RouteFollower {
        var followerSettings = RouteFollower.Settings()
        followerSettings.arrivalRadiusMeters = settings.arrivalRadiusMeters
        return RouteFollower(
            waypoints: route.waypoints.map {
                RouteFollower.Waypoint(coordinate: $0.coordinate, name: $0.name, radiusMeters: $0.arrivalRadiusMeters)
            },
            index: route.index, settings: followerSettings)
    }
}

extension DaemonState.Target {
    /// The single destination, when that is the target.
    public var destination: SavedDestination? {
        if case .destination(let destination) = self { destination } else { nil }
    }

    /// The route, when that is the target.
    public var route: DaemonState.ActiveRoute? {
        if case .route(let route) = self { route } else { nil }
    }

    /// The route's saved form: its waypoints and the leg reached.
    var savedRoute: SavedRoute? {
        guard let route else { return nil }
        return SavedRoute(
            name: route.name, waypoints: route.follower.waypoints.map(SavedDestination.init), index: route.follower.index)
    }
}

extension SavedDestination {
    /// A route's waypoint as the daemon keeps it.
    init(_ waypoint: RouteFollower.Waypoint) {
        self.init(coordinate: waypoint.coordinate, name: waypoint.name, arrivalRadiusMeters: waypoint.radiusMeters)
    }
}
