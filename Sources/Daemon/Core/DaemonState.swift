import ControlProtocol
import Geodesy
import Geomagnetism
import Guidance
import Heading

/// The daemon's decisions as one value: everything it knows (the navigation pipeline, the
/// saved state, the calibration under way, what is missing) lives here once, and every event
/// (a sample, a fix, time passing, a request, an IMU or gpsd found or lost) comes in with the
/// time it happened and goes out as what to do: patterns and cues for the player, files to
/// save, lines to log, events to record. No IO, no clock, no lock: ``DaemonCore`` performs the
/// effects, and the tests drive this value on manual time.
///
/// The sensor path (``sensor(_:at:)``, ``tick(at:)``) returns the navigator's fixed-size
/// actions rather than an array of effects: it runs 50 times a second and must not allocate.
public struct DaemonState: Sendable {
    /// What to do, in order.
    public enum Effect: Sendable, Equatable {
        /// Drive the motor with this cue from now on (nil: silent).
        case cue(HapticCue?)
        /// Play a pattern ahead of the cue.
        case play(HapticPattern)
        /// Stop the pattern playing and drop the one waiting.
        case silence
        /// Save a state file; when that fails, log and answer as ``Save`` says.
        case save(Save)
        /// Log a line.
        case log(LogLevel, String, [String: String])
        /// Record an event with what the pipeline concluded from it.
        case record(RecordingEvent)
        /// Tell the world the destination changed (the simulated walker heads for it; the
        /// sampling thread speeds up).
        case destinationChanged(Coordinate?)
        /// A calibration started (true) or ended (false).
        case calibratingChanged(Bool)
    }

    /// How loud a log line is; the executor maps it to its logger's levels.
    public enum LogLevel: Sendable, Equatable {
        case info, notice, warning, error
    }

    /// A state file to write.
    public struct Save: Sendable, Equatable {
        /// What to write.
        public enum Change: Sendable, Equatable {
            case destination(SavedDestination?)
            case recent(RecentDestinations)
            case muted(Bool)
            case calibration(SavedCalibration?)
            case route(SavedRoute?)
            case places(PlaceBook)
        }

        /// The new contents.
        public var change: Change
        /// The log line when the save fails (the error is added to it).
        public var failureLog: String
        /// The start of the `internal` error that then answers the request: `…: <error>`.
        public var failureReply: String
    }

    /// A control request's outcome: its effects, and its reply if every save succeeds.
    public struct Outcome<Reply: Sendable>: Sendable {
        public var effects: [Effect]
        public var reply: Result<Reply, ControlError>
    }

    /// The pipeline: heading, magnetic model, navigator.
    public internal(set) var pipeline: NavigationPipeline
    /// What is kept across restarts.
    public internal(set) var saved: PersistentState
    /// The route being walked, when one is: `saved.route` as the pipeline follows it.
    public internal(set) var follower: RouteFollower?
    /// What the latest fix did to the route, until ``routeProgress(at:)`` takes it.
    public internal(set) var routeEvent: RouteFollower.Event?
    /// The latest fixes, for `place mark`.
    var recentFixes = RecentFixes()
    /// The samples of the calibration under way; nil when none is.
    public private(set) var calibrationFit: CalibrationFit?
    /// Whether a calibration is applied to the magnetometer.
    public private(set) var isCalibrated: Bool
    /// The time of the latest event, seconds since start: events never go back in time.
    public private(set) var lastSeconds = 0.0
    /// The mute state the pipeline was last given: the wearer's, or paused to calibrate.
    private var pipelineMuted = false
    /// What went wrong at start (a state file set aside).
    private let startProblems: [String]
    /// Why no IMU can be read, while none can.
    public private(set) var imuProblem: String?
    /// The IMU in use and its counters.
    public private(set) var imu: StatusReport.IMU?
    /// Why gpsd cannot be read, while it cannot.
    public private(set) var gpsProblem: String?

    /// The state at start.
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline, with the calibration in use applied.
    ///   - saved: What was loaded from the state directory.
    ///   - isCalibrated: Whether `pipeline` has a calibration (saved, or the simulated board's).
    ///   - startProblems: What loading found wrong, one sentence each.
    public init(pipeline: NavigationPipeline, saved: PersistentState, isCalibrated: Bool, startProblems: [String] = []) {
        self.pipeline = pipeline
        self.saved = saved
        self.isCalibrated = isCalibrated
        self.startProblems = startProblems
    }

    // MARK: - Sensors (no allocation)

    /// One sensor event at `seconds`: an IMU sample (also collected by a calibration under way)
    /// or a fix. A time before the latest event's is taken as the latest's.
    ///
    /// A fix that reaches (or passes) a route's waypoint first sets the next one, so that the
    /// navigator arrives only at the last; ``routeEvent`` then says so until
    /// ``routeProgress(at:)`` takes it.
    ///
    /// - Returns: The navigator's actions, the event as it should be recorded, and the new
    ///   waypoint as a `destination` event to record before it when the route moved on.
    public mutating func sensor(_ kind: RecordingEvent.Kind, at seconds: Double) -> (
        actions: Navigator.Actions, record: RecordingEvent, output: NavigationPipeline.Output?, routeRecord: RecordingEvent?
    ) {
        if case .imu(let sample) = kind { calibrationFit?.add(sample.magneticMicrotesla) }
        let event = RecordingEvent(seconds: advance(to: seconds), kind: kind)
        var actions = Navigator.Actions()
        var routeRecord: RecordingEvent?
        if case .fix(let fix) = kind { routeRecord = followRoute(fix, at: event.seconds, actions: &actions) }
        let (eventActions, output) = pipeline.handle(event)
        actions += eventActions
        return (actions, event, output, routeRecord)
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
    public mutating func imuInUse(_ report: StatusReport.IMU) {
        imuProblem = nil
        imu = report
    }

    /// gpsd cannot be read, and why; nil once it can.
    public mutating func gpsMissing(_ problem: String?) { gpsProblem = problem }

    // MARK: - Start

    /// At start: the calibration in use recorded (so a replay starts from it), the mute
    /// state applied, the saved destination restored.
    public mutating func start(calibration: MagneticCalibration?, at seconds: Double) -> [Effect] {
        var effects: [Effect] = []
        if let calibration { effects += handle(.calibration(calibration), at: seconds) }
        effects += applyMute(at: seconds)
        if let route = saved.route {
            effects += restore(route, at: seconds)
        } else if let destination = saved.destination {
            effects.append(.log(.info, "destination restored", ["destination": destination.description]))
            effects += guide(to: destination, announcing: .destinationAccepted, at: seconds)
        }
        return effects
    }

    // MARK: - Requests

    /// `go`: guide to a place.
    public mutating func go(_ coordinate: Coordinate, name: String?, at seconds: Double) -> Outcome<Void> {
        go(SavedDestination(coordinate: coordinate, name: name), at: seconds)
    }

    /// `go` to a destination with its own radius, perhaps: a coordinate, a recent one, a place.
    /// A route being walked is dropped: the wearer chose somewhere else.
    mutating func go(_ destination: SavedDestination, at seconds: Double) -> Outcome<Void> {
        saved.destination = destination
        saved.recent.record(SavedDestination(coordinate: destination.coordinate, name: destination.name))
        var effects = dropRoute()
        effects += guide(to: destination, announcing: .destinationAccepted, at: seconds)
        effects.append(.log(.info, "destination set", ["destination": destination.description]))
        let failure = "guiding, but the destination could not be saved"
        effects.append(.save(Save(change: .destination(destination), failureLog: "cannot save the destination", failureReply: failure)))
        effects.append(.save(Save(change: .recent(saved.recent), failureLog: "cannot save the destination", failureReply: failure)))
        return Outcome(effects: effects, reply: .success(()))
    }

    /// `go` with `recent`: guide to the `index`th recent destination, from 1.
    public mutating func goRecent(_ index: Int, at seconds: Double) -> Outcome<Void> {
        guard index >= 1, index <= saved.recent.count else {
            let count = saved.recent.count
            return Outcome(
                effects: [],
                reply: .failure(
                    ControlError(
                        .notFound, "there \(count == 1 ? "is" : "are") only \(count) recent destination\(count == 1 ? "" : "s")")))
        }
        return go(saved.recent[saved.recent.startIndex + index - 1], at: seconds)
    }

    /// `clear`: no destination; whatever buzzes for the old one stops.
    public mutating func clear(at seconds: Double) -> Outcome<Void> {
        saved.destination = nil
        var effects = dropRoute()
        effects += guide(to: nil, announcing: .destinationAccepted, at: seconds)
        effects.append(.silence)
        effects.append(
            .save(
                Save(
                    change: .destination(nil), failureLog: "cannot save the cleared destination",
                    failureReply: "cleared, but the change could not be saved")))
        return Outcome(effects: effects, reply: .success(()))
    }

    /// `mute`: the wearer's mute, which stays across restarts.
    public mutating func mute(_ on: Bool, at seconds: Double) -> Outcome<Void> {
        saved.muted = on
        var effects = applyMute(at: seconds)
        if on { effects.append(.silence) }
        effects.append(.log(.info, on ? "muted" : "unmuted", [:]))
        effects.append(
            .save(
                Save(
                    change: .muted(on), failureLog: "cannot save the mute state",
                    failureReply: "\(on ? "muted" : "unmuted"), but it could not be saved")))
        return Outcome(effects: effects, reply: .success(()))
    }

    /// `buzz`: one pattern, refused while another plays so that a stream of them cannot keep
    /// the motor going.
    public func buzz(_ pattern: BuzzPattern, patternPlaying: Bool) -> Outcome<Void> {
        guard let haptic = HapticPattern(rawValue: pattern.rawValue) else {
            return Outcome(effects: [], reply: .failure(ControlError(.internal, "pattern \(pattern.rawValue) has no rendering")))
        }
        guard !patternPlaying else {
            return Outcome(
                effects: [], reply: .failure(ControlError(.refused, "a pattern is playing; buzz again when it has ended")))
        }
        return Outcome(effects: [.play(haptic)], reply: .success(()))
    }

    /// `calibrate`.
    ///
    /// - Parameter utcSeconds: The wall-clock time, for a calibration's `created` date.
    public mutating func calibrate(_ action: CalibrationAction, at seconds: Double, utcSeconds: Int64) -> Outcome<
        CalibrationReport
    > {
        switch action {
        case .status:
            return Outcome(effects: [], reply: .success(calibrationReport()))
        case .start:
            guard calibrationFit == nil else {
                return Outcome(
                    effects: [], reply: .success(calibrationReport(message: "already collecting; keep turning, then finish")))
            }
            calibrationFit = CalibrationFit()
            var effects: [Effect] = [.calibratingChanged(true)]
            effects += applyMute(at: seconds)
            effects.append(.log(.info, "calibration started", [:]))
            return Outcome(
                effects: effects,
                reply: .success(
                    calibrationReport(
                        message:
                            "turn the device slowly through a figure-eight, every side up and down, for about 30 s; then finish")))
        case .cancel:
            guard calibrationFit != nil else { return Outcome(effects: [], reply: .failure(Self.notCalibrating)) }
            var effects = endCalibration(at: seconds)
            effects.append(.log(.info, "calibration cancelled", [:]))
            return Outcome(
                effects: effects, reply: .success(calibrationReport(message: "cancelled; the calibration in use is unchanged")))
        case .finish:
            return finishCalibration(at: seconds, utcSeconds: utcSeconds)
        case .reset:
            var effects = calibrationFit != nil ? endCalibration(at: seconds) : []
            saved.calibration = nil
            isCalibrated = false
            effects += handle(.calibration(nil), at: seconds)
            effects.append(.log(.notice, "calibration reset", [:]))
            effects.append(
                .save(
                    Save(
                        change: .calibration(nil), failureLog: "cannot save the calibration reset",
                        failureReply: "reset, but the change could not be saved")))
            return Outcome(
                effects: effects,
                reply: .success(
                    calibrationReport(message: "calibration forgotten; the heading is unreliable until you calibrate")))
        }
    }

    private static let notCalibrating = ControlError(.refused, "no calibration is running; start one first")

    private mutating func finishCalibration(at seconds: Double, utcSeconds: Int64) -> Outcome<CalibrationReport> {
        guard let fit = calibrationFit else { return Outcome(effects: [], reply: .failure(Self.notCalibrating)) }
        guard let referenceField = pipeline.modelFieldMicrotesla else {
            return Outcome(
                effects: [],
                reply: .failure(
                    ControlError(
                        .refused,
                        "no GPS fix with a date yet: the field strength to scale to comes from WMM2025 at your position; still collecting"
                    )))
        }
        let result: (calibration: MagneticCalibration, quality: CalibrationFit.Quality)
        do throws(CalibrationFit.Refusal) {
            result = try fit.fit(referenceFieldMicrotesla: referenceField)
        } catch {
            return Outcome(
                effects: [.log(.info, "calibration refused", ["reason": "\(error)"])],
                reply: .failure(ControlError(.refused, "\(error); still collecting")))
        }
        let calibration = SavedCalibration(
            calibration: result.calibration, createdAt: UTCTime(seconds: utcSeconds), quality: .init(result.quality))
        saved.calibration = calibration
        isCalibrated = true
        var effects = handle(.calibration(result.calibration), at: seconds)
        effects += endCalibration(at: seconds)
        effects.append(.play(.calibrationDone))
        effects.append(
            .log(
                .notice, "calibration stored",
                ["fitError": "\(result.quality.fitErrorPercent)", "coverage": "\(result.quality.coveragePercent)"]))
        effects.append(
            .save(
                Save(
                    change: .calibration(calibration), failureLog: "cannot save the calibration",
                    failureReply: "calibrated and in use, but it could not be saved")))
        return Outcome(effects: effects, reply: .success(calibrationReport(message: "calibration stored and in use")))
    }

    private mutating func endCalibration(at seconds: Double) -> [Effect] {
        calibrationFit = nil
        return [.calibratingChanged(false)] + applyMute(at: seconds)
    }

    /// `none`, `stored` (a calibration is in use) or `running`.
    private var calibrationState: String { calibrationFit != nil ? "running" : isCalibrated ? "stored" : "none" }

    /// The `CALIBRATION` reply.
    public func calibrationReport(message: String? = nil) -> CalibrationReport {
        let quality = saved.calibration.map {
            CalibrationReport.Quality(
                fitErrorPercent: $0.quality.fitErrorPercent, coveragePercent: $0.quality.coveragePercent,
                fittedFieldMicrotesla: $0.quality.fittedFieldMicrotesla,
                referenceFieldMicrotesla: $0.quality.referenceFieldMicrotesla, sampleCount: $0.quality.sampleCount)
        }
        return CalibrationReport(
            state: calibrationState, samples: calibrationFit?.count, octants: calibrationFit?.octantCounts, quality: quality,
            created: saved.calibration?.createdAt.iso8601, message: message)
    }

    // MARK: - Status

    /// The `STATUS` reply at `seconds`, with what the player is doing now.
    ///
    /// - Parameters:
    ///   - duty: The duty last written to the motor, 0…1.
    ///   - pattern: The pattern playing, if one is.
    ///   - motorFault: Why the motor cannot be driven now, if it cannot.
    public func status(at seconds: Double, duty: Double, pattern: HapticPattern?, motorFault: String?) -> StatusReport {
        let navigator = pipeline.navigator
        let standing = navigator.fixStanding(at: max(seconds, lastSeconds))
        let fix = pipeline.fix.map {
            StatusReport.Fix(
                time: $0.time?.iso8601, mode: $0.mode.rawValue, latitude: $0.coordinate?.latitudeDegrees,
                longitude: $0.coordinate?.longitudeDegrees, horizontalErrorMeters: $0.horizontalErrorMeters,
                altitudeMSLMeters: $0.altitudeMSLMeters, altitudeHAEMeters: $0.altitudeHAEMeters,
                ageSeconds: standing.map { ($0.ageSeconds * 10).rounded() / 10 }, problem: standing?.problem?.rawValue)
        }
        let heading =
            imuProblem != nil
            ? StatusReport.Heading(isReliable: false, problem: "no-imu")
            : pipeline.lastHeading.map {
                StatusReport.Heading(
                    trueDegrees: $0.trueDegrees, magneticDegrees: $0.magneticDegrees,
                    declinationDegrees: $0.declinationDegrees, isReliable: $0.isReliable,
                    biasDegrees: pipeline.courseBiasDegrees, correction: $0.correction.rawValue,
                    coastingSeconds: $0.coastingSeconds, problem: $0.problem?.rawValue)
            } ?? StatusReport.Heading()
        let destination = currentDestination.map(Self.report)
        var problems = startProblems
        if let imuProblem { problems.append("imu: \(imuProblem); trying again") }
        if let gpsProblem { problems.append("gps: \(gpsProblem); trying again") }
        problems += Self.zoneProblems(pipeline.compassZone)
        if let motorFault { problems.append("motor: \(motorFault); retrying") }
        return StatusReport(
            state: navigator.state.rawValue, fix: fix, heading: heading, destination: destination,
            bearingDegrees: navigator.course?.bearingDegrees, distanceMeters: navigator.course?.distanceMeters,
            errorDegrees: navigator.course?.errorDegrees,
            haptic: StatusReport.Haptic(
                intensity: navigator.cue?.intensity, sharpness: navigator.cue?.sharpness, duty: duty, pattern: pattern?.rawValue,
                zoneDegrees: navigator.course.map { ($0.zoneDegrees * 10).rounded() / 10 },
                mode: navigator.settings.rule.mode.rawValue),
            calibration: calibrationState, isMuted: saved.muted, imu: imuProblem == nil ? imu : nil, problems: problems,
            route: routeReport())
    }

    /// What WMM2025's zones say about the compass here.
    private static func zoneProblems(_ zone: CompassZone?) -> [String] {
        switch zone {
        case .blackout:
            ["compass: near a magnetic pole (WMM2025 blackout zone, horizontal field under 2000 nT): no heading can be trusted here"]
        case .caution:
            ["compass: close to a magnetic pole (WMM2025 caution zone, horizontal field under 6000 nT): the heading may be degraded"]
        case .normal, nil: []
        }
    }

    // MARK: - Helpers

    /// What the wearer is being guided to: the route's waypoint (its last, once finished), or
    /// the destination.
    var currentDestination: SavedDestination? {
        guard let follower, let route = saved.route else { return saved.destination }
        return route.waypoints[min(follower.index, route.waypoints.count - 1)]
    }

    /// A destination on the wire.
    static func report(_ destination: SavedDestination) -> DestinationReport {
        DestinationReport(
            latitude: destination.coordinate.latitudeDegrees, longitude: destination.coordinate.longitudeDegrees,
            name: destination.name, radiusMeters: destination.arrivalRadiusMeters)
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
        effects += actions.map(Self.effect)
        effects.append(.record(event))
        return effects
    }

    private static func effect(_ action: Navigator.Action) -> Effect {
        switch action {
        case .cue(let cue): .cue(cue)
        case .play(let pattern): .play(pattern)
        }
    }

    /// A pipeline event from a request: the navigator's actions as effects, then the event
    /// recorded.
    private mutating func handle(_ kind: RecordingEvent.Kind, at seconds: Double) -> [Effect] {
        let event = RecordingEvent(seconds: advance(to: seconds), kind: kind)
        let (actions, _) = pipeline.handle(event)
        var effects = actions.map(Self.effect)
        effects.append(.record(event))
        return effects
    }

    /// Gives the pipeline the effective mute state when it changes: the wearer's choice, or
    /// paused while they turn the device to calibrate (the heading means nothing then).
    private mutating func applyMute(at seconds: Double) -> [Effect] {
        let muted = saved.muted || calibrationFit != nil
        guard muted != pipelineMuted else { return [] }
        pipelineMuted = muted
        return handle(.muted(muted), at: seconds)
    }
}
