import ControlProtocol
import Core
import Geodesy
import Guidance
import Haptics
import Heading
import IMU
import PlaceIndex
import Synchronization
import SystemSupport

/// The thin executor around ``DaemonState``: it dates each event on its clock, hands it to the
/// state under one lock, and carries out what the state decided: cues and patterns to the
/// motor, state files to the store, trail appends to the trail's thread, lines to the log and
/// the recording, news to whoever listens (``Hooks``). It answers the control socket through
/// one path, ``handle(_:)``, building each reply from a copy of the state taken with the
/// transition.
///
/// Sensor events take the short way: ``sample(_:at:)``, ``fix(_:)`` and ``tick()`` may be
/// called from any thread (the sampling thread calls them 50 times a second); the sample path
/// takes the lock once and allocates nothing. Requests and the saves a fix causes are carried
/// out one at a time (``requests``), so saves land in the order of their transitions while the
/// sampling thread never waits for a save.
public final class DaemonCore<C: Clock>: ControlHandler, Sendable where C.Duration == Duration {
    /// Who is told what the state decided beyond the motor: the sampling thread (to speed up),
    /// a simulated walker (to head for the destination, or tumble the device to calibrate).
    public struct Hooks: Sendable {
        /// A new destination, or none.
        public var destinationChanged: @Sendable (Coordinate?) -> Void
        /// A calibration started (true) or ended (false).
        public var calibratingChanged: @Sendable (Bool) -> Void

        /// Hooks from their parts; by default nobody listens.
        public init(
            destinationChanged: @escaping @Sendable (Coordinate?) -> Void = { _ in },
            calibratingChanged: @escaping @Sendable (Bool) -> Void = { _ in }
        ) {
            self.destinationChanged = destinationChanged
            self.calibratingChanged = calibratingChanged
        }
    }

    private let core: Mutex<DaemonState>
    /// Held for the whole of a request (or a fix's saves), IO included.
    private let requests = Mutex(())
    private let clock: C
    private let origin: C.Instant
    private let wallClock: @Sendable () -> Int64
    private let motor: any MotorOutput
    private let store: StateStore?
    private let trailFiles: TrailFiles?
    private let trailQueue: TrailService?
    private let logger: Logger
    private let recorder: Recorder?
    private let hooks: Hooks
    /// The place index: `search` and `where`; nil answers that no map is loaded.
    private let places: PlaceLookup?
    /// Walks over the streets: `route plan`, `go` with a walk, a new plan when the wearer
    /// strays; nil plans none.
    private let planning: WalkPlanning?
    /// The button's devices and gestures and the voice's sentences, for `STATUS`, and
    /// `button test`; nil: no button, no voice.
    private let handsFree: HandsFree?
    /// The last trail error logged, so that a failing card is logged once, not every minute.
    private let trailError = Mutex<Errno?>(nil)
    /// Whether the latest sample was near the zone's edge (``isNearZoneEdge``).
    private let nearZoneEdge = Atomic(false)
    /// Set at stop: the motor is off from then on, whatever the sensors still deliver.
    private let isMotorStopped = Atomic(false)
    /// The navigator's state after the latest event, readable without the lock.
    private let currentState = Atomic<UInt8>(0)
    private let stateChanges: AsyncStream<Navigator.State>.Continuation
    /// The states as they change, for systemd's STATUS= line and the log; only the newest
    /// unread one is kept.
    public let states: AsyncStream<Navigator.State>

    /// An executor around a state.
    ///
    /// - Parameters:
    ///   - state: The state as loaded, not yet started (``start()`` restores it).
    ///   - clock: What events are dated on; seconds count from now.
    ///   - wallClock: The time of day, POSIX seconds (a calibration's date).
    ///   - motor: The player.
    ///   - store: Where state files are saved; nil saves nothing (replay, tests).
    ///   - trailFiles: Where the trail is appended; nil keeps none.
    ///   - trailQueue: The thread appends go to; nil appends on the thread of the fix (tests).
    ///   - recorder: Where events are recorded (`--record`).
    ///   - hooks: Who else is told.
    public init(
        state: DaemonState, clock: C, wallClock: @escaping @Sendable () -> Int64, motor: any MotorOutput,
        store: StateStore?, trailFiles: TrailFiles? = nil, trailQueue: TrailService? = nil, logger: Logger,
        recorder: Recorder? = nil, hooks: Hooks = Hooks(), places: PlaceLookup? = nil, planning: WalkPlanning? = nil,
        handsFree: HandsFree? = nil
    ) {
        self.planning = planning
        self.handsFree = handsFree
        core = Mutex(state)
        self.clock = clock
        origin = clock.now
        self.wallClock = wallClock
        self.motor = motor
        self.store = store
        self.trailFiles = trailFiles
        self.trailQueue = trailQueue
        self.logger = logger
        self.recorder = recorder
        self.hooks = hooks
        self.places = places
        (states, stateChanges) = AsyncStream.makeStream(of: Navigator.State.self, bufferingPolicy: .bufferingNewest(1))
        currentState.store(Self.code(of: state.state), ordering: .relaxed)
    }

    /// Seconds since the executor was made, on its clock.
    public func seconds(at instant: C.Instant) -> Double { origin.duration(to: instant).seconds }

    private var now: Double { seconds(at: clock.now) }

    // MARK: - Sensors

    /// One IMU sample, taken at `instant` (a burst's samples are older than the burst); any
    /// thread, no allocation.
    public func sample(_ sample: IMUSample, at instant: C.Instant) {
        let at = seconds(at: instant)
        core.withLock { core in
            let (actions, record, output) = core.imu(sample, at: at)
            recorder?.record(record.kind, at: record.seconds, live: output)
            deliver(actions)
            publish(core.state)
            // Where a turn could carry the heading across the zone's edge before the next burst.
            let turnDegreesPerSecond = sample.angularRateDegreesPerSecond?.length ?? 0
            let reach = Self.zoneEdgeMarginDegrees + turnDegreesPerSecond * Self.zoneEdgeLookaheadSeconds
            let near = core.pipeline.navigator.zoneEdgeDistanceDegrees.map { $0 <= reach } ?? false
            nearZoneEdge.store(near, ordering: .relaxed)
        }
    }

    /// Whether the heading was near the zone's edge at the latest sample, where the next
    /// samples may start or stop the motor: the sampling thread then reads every sample as the
    /// chip makes it instead of bursts ten times a second. Any thread, no lock.
    public var isNearZoneEdge: Bool { nearZoneEdge.load(ordering: .relaxed) }

    /// How near the zone's edge counts as near when the body does not turn, degrees: a turn
    /// starting from rest moves the heading about 3° in a burst's 0.1 s.
    static var zoneEdgeMarginDegrees: Double { 5 }
    /// How far ahead a turn is projected, seconds: a burst's interval (0.1 s) and a FIFO sample
    /// period (1/52 s), the longest a sample can wait before it is read.
    static var zoneEdgeLookaheadSeconds: Double { 0.12 }

    /// One fix, now; any thread. What it decides beyond the motor (a route moved on, a trail
    /// append) is carried out after the lock is released.
    public func fix(_ fix: Fix) {
        let at = now
        let outcome = core.withLock { core in
            let outcome = core.fix(fix, at: at)
            if let waypoint = outcome.waypointRecord { recorder?.record(waypoint.kind, at: waypoint.seconds) }
            recorder?.record(outcome.record.kind, at: outcome.record.seconds)
            record(outcome.effects)
            deliver(outcome.actions)
            publish(core.state)
            return outcome
        }
        if let append = outcome.trailAppend { submit(append) }
        if !outcome.effects.isEmpty { requests.withLock { _ in _ = perform(outcome.effects, done: "moved on") } }
    }

    /// Time passing: stale fixes, repeated warnings; any thread.
    public func tick() {
        let at = now
        core.withLock { core in
            deliver(core.tick(at: at))
            publish(core.state)
        }
    }

    private func deliver(_ actions: Navigator.Actions) {
        for action in actions { deliver(action) }
    }

    /// The one way a cue or a pattern reaches the motor: none does once a stop has begun.
    private func deliver(_ action: Navigator.Action) {
        guard !isMotorStopped.load(ordering: .relaxed) else { return }
        switch action {
        case .cue(let cue): motor.deliver(cue: cue)
        case .play(let pattern): motor.deliver(pattern: pattern)
        }
    }

    private func publish(_ state: Navigator.State) {
        let code = Self.code(of: state)
        if currentState.exchange(code, ordering: .relaxed) != code { stateChanges.yield(state) }
    }

    /// The code kept in `currentState`: the state's index in `allCases`.
    private static func code(of state: Navigator.State) -> UInt8 {
        // Every state is among `allCases`.
        UInt8(Navigator.State.all.firstIndex(of: state)!)
    }

    /// The navigator's state after the latest event; any thread, no lock.
    public var state: Navigator.State { Navigator.State.all[Int(currentState.load(ordering: .relaxed))] }

    /// Whether the heading matters now: a destination is set, or a calibration is collecting
    /// samples. When it does not, the sampling thread slows down.
    public var needsHeading: Bool { core.withLock { $0.needsHeading } }

    /// Why no IMU can be read (nil once one is): from the sampling thread, which keeps trying.
    public func imuChanged(problem: String?) {
        core.withLock { core in
            if core.imuProblem != problem { core.imuMissing(problem) }
        }
    }

    /// The IMU in use stopped answering at `instant` (its last good read), or answers again
    /// (nil): from the sampling thread, on the change.
    public func imuSilent(since instant: C.Instant?) {
        let since = instant.map { seconds(at: $0) }
        core.withLock { $0.imuSilent(since: since) }
    }

    /// The IMU in use and its counters: from the sampling thread, about once a second.
    public func imuInUse(chips: String, statistics: IMUReader.Statistics) {
        let report = IMUInUse(
            chips: chips, samples: statistics.samples, transferErrors: statistics.transferErrors,
            faults: statistics.faultedPolls, restarts: statistics.reinitialisations)
        core.withLock { $0.imuInUse(report) }
    }

    /// Why gpsd cannot be read (nil once it can): from the GPS client's events.
    public func gpsChanged(problem: String?) { core.withLock { $0.gpsMissing(problem) } }

    // MARK: - Start and stop

    /// At start: the calibration in use recorded, the mute state applied, the saved route or
    /// destination restored.
    public func start() {
        let at = now
        requests.withLock { _ in
            let (effects, persistent) = core.withLock { core in
                let effects = core.start(at: at)
                record(effects)
                return (effects, core.persistent)
            }
            _ = perform(effects, done: "restored", persistent: persistent)
        }
    }

    /// At the start of a stop: the motor off at once, and no cue or pattern played after it.
    public func stopMotor() {
        isMotorStopped.store(true, ordering: .relaxed)
        motor.silence()
        motor.deliver(cue: nil)
    }

    /// At stop: the points still waiting appended, on this thread.
    public func stop() {
        if let append = core.withLock({ $0.flushTrail() }) { appendTrail(append) }
    }

    // MARK: - The trail

    private func submit(_ append: TrailLog.Append) {
        if let trailQueue { trailQueue.submit(append) } else { appendTrail(append) }
    }

    /// Carries out an append on the calling thread (the trail's own, or at stop) and tells the
    /// state what came of it.
    public func appendTrail(_ append: TrailLog.Append) {
        guard let trailFiles else {
            // No files to append to: the points stay waiting, as after a failed append, within
            // the trail's bound.
            core.withLock { $0.trailWritten(append, TrailLog.Written(rotated: false, bytes: 0, appended: false)) }
            return
        }
        let (written, error) = trailFiles.append(append) { bytes in core.withLock { $0.trail.appendLines(append, to: &bytes) } }
        core.withLock { $0.trailWritten(append, written) }
        noteTrail(error)
    }

    /// Logs a trail error when it starts and when it ends, not every minute it lasts.
    private func noteTrail(_ error: Errno?) {
        let previous = trailError.withLock { stored in
            defer { stored = error }
            return stored
        }
        guard previous != error else { return }
        if let error {
            logger.error("cannot append to the trail; its points wait in memory", ["error": "\(error)"])
        } else {
            logger.notice("the trail is written again")
        }
    }

    /// Plays a pattern at once, ahead of the cue: a button's gesture confirmed. Not a request:
    /// nothing of the state changes, and it must not wait behind one.
    public func confirm(_ pattern: HapticPattern) {
        deliver(.play(pattern))
    }

    // MARK: - Requests

    /// Carries out one request: the state's transition and a copy of the state under one lock,
    /// then its effects in order, then the reply built from the copy. A failed save turns the
    /// reply into an `internal` error saying what was done and what was not kept.
    public func handle(_ request: ControlRequest) -> ControlReply {
        // The map is no part of the state: asked here, near the position given or the fix.
        switch request {
        case .search(let query, let latitude, let longitude, let limit):
            return placeAnswer(latitude, longitude) { places, point in places.search(query, near: point, limit: limit) }
        case .whereAmI(let latitude, let longitude):
            return placeAnswer(latitude, longitude) { places, point in places.whereIs(point) }
        case .route(.plan(let from, let to, let profile, let follow)):
            return planWalk(from: from, to: to, profile: profile, follow: follow)
        case .go(let latitude, let longitude, let name, let walk):
            let destination = Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)
            if let answer = walkTo(destination, name: name, walk: walk) { return answer }
        case .buttonTest(let seconds):
            guard let handsFree, handsFree.hasButton else {
                return .error(ControlError(.notFound, "no button is configured: set button in the config file (waypointd.conf(5))"))
            }
            handsFree.test(seconds: seconds)
            return .ok
        default:
            break
        }
        // A question changes nothing and saves nothing: it need not wait behind another
        // request's saves (a watch asks up to ten times a second).
        // An export page or `back` read both trail files (megabytes): give that back after.
        defer { if DaemonState.readsTrail(request) { HeapPolicy.releaseFreeMemory() } }
        // A question is answered without waiting for another request's saves.
        guard !request.isQuestion else {
            let reply = transition(request).reply
            // STATUS names the map loaded and the button's and voice's news, which the state
            // does not hold.
            if case .status(var report) = reply {
                report.map = places?.map()
                if let handsFree {
                    report.button = handsFree.button
                    report.said = handsFree.said
                    if let problem = handsFree.speechProblem { report.problems.append(problem) }
                }
                return .status(report)
            }
            return reply
        }
        return requests.withLock { _ in
            let (outcome, snapshot, reply) = transition(request)
            if let failure = perform(outcome.effects, done: outcome.done, persistent: snapshot.persistent) {
                return .error(failure)
            }
            return reply
        }
    }

    // MARK: - Walks

    /// `route plan`: a walk from `from` (nil: the fix) to `to`, answered with `PLAN`, and
    /// followed when `follow` says so.
    private func planWalk(from: DestinationReport?, to: DestinationReport, profile: String, follow: Bool) -> ControlReply {
        guard let planning else { return .error(ControlError(.notFound, WalkPlanner.Failure.noRoutes.description)) }
        let start = from.map { Coordinate(uncheckedLatitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude) }
        guard let start = start ?? core.withLock({ $0.pipeline.fix?.coordinate }) else {
            return .error(ControlError(.refused, "no position yet to plan from: wait for a GPS fix, or give the start (waypointctl: --from)"))
        }
        let end = Coordinate(uncheckedLatitudeDegrees: to.latitude, longitudeDegrees: to.longitude)
        let plan: WalkPlan
        switch planning.plan(from: start, to: end, profile: WalkPlanner.Profile(rawValue: profile) ?? .foot) {
        case .failure(let error): return .error(error)
        case .success(let made): plan = made
        }
        if follow, case .error(let error) = startWalk(plan, to: SavedDestination(coordinate: end, name: to.name), profile: profile) {
            return .error(error)
        }
        return .plan(WalkPlanning.report(plan, profile: profile, following: follow))
    }

    /// `go` as a walk, when `walk` (or, without it, the `walk` setting) says so: the reply, or
    /// nil to guide straight there. An explicit walk that cannot be planned is an error; a
    /// walk the setting chose falls back to guiding straight there, logged.
    private func walkTo(_ destination: Coordinate, name: String?, walk: Bool?) -> ControlReply? {
        guard let planning else {
            return walk == true ? .error(ControlError(.notFound, WalkPlanner.Failure.noRoutes.description)) : nil
        }
        let here = core.withLock { $0.pipeline.fix?.coordinate }
        guard planning.walks(walk, from: here, to: destination) else { return nil }
        guard let here else {
            return .error(ControlError(.refused, "no position yet to plan a walk from: wait for a GPS fix, or go straight there (--straight)"))
        }
        switch planning.plan(from: here, to: destination, profile: .foot) {
        case .success(let plan):
            return startWalk(plan, to: SavedDestination(coordinate: destination, name: name), profile: WalkPlanner.Profile.foot.rawValue)
        case .failure(let error):
            if walk == true { return .error(error) }
            logger.notice("no walk planned; guiding straight to the destination", ["error": error.message])
            return nil
        }
    }

    /// Follows a plan: the state's transition and its effects, as for a request.
    private func startWalk(_ plan: WalkPlan, to destination: SavedDestination, profile: String) -> ControlReply {
        let at = now
        let utc = wallClock()
        return requests.withLock { _ in
            let (outcome, persistent) = core.withLock { core in
                let outcome = core.startWalk(plan, to: destination, profile: profile, at: at, utcSeconds: utc)
                record(outcome.effects)
                return (outcome, core.persistent)
            }
            if let failure = perform(outcome.effects, done: outcome.done, persistent: persistent) { return .error(failure) }
            return .ok
        }
    }

    /// A reply from the place index near `latitude`, `longitude`, else near the current fix.
    private func placeAnswer(_ latitude: Double?, _ longitude: Double?, _ answer: (PlaceLookup, Coordinate) -> ControlReply)
        -> ControlReply
    {
        guard let places else {
            return .error(ControlError(.notFound, "no map is loaded; import one: waypointd map import FILE.osm.pbf"))
        }
        let given = latitude.flatMap { latitude in
            longitude.map { Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: $0) }
        }
        guard let point = given ?? core.withLock({ $0.pipeline.fix?.coordinate }) else {
            return .error(ControlError(.refused, "no position yet: wait for a GPS fix, or give one (lat and lon; waypointctl: --near)"))
        }
        return answer(places, point)
    }

    /// The state's transition and a copy of the state under one lock; the reply built from the
    /// copy outside it.
    private func transition(_ request: ControlRequest) -> (
        outcome: DaemonState.Outcome, snapshot: DaemonState, reply: ControlReply
    ) {
        let context = DaemonState.RequestContext(
            seconds: now, utcSeconds: wallClock(), isPatternPlaying: motor.isPlayingPattern,
            storedTrail: trailFiles.map { DaemonState.readsTrail(request) ? $0.contents() : [] })
        let (outcome, snapshot) = core.withLock { core in
            let outcome = core.handle(request, context)
            record(outcome.effects)
            return (outcome, core)
        }
        let reply: ControlReply =
            switch outcome.reply {
            case .success(let answer): DaemonReplies.reply(answer, state: snapshot, at: context.seconds, motor: motor)
            case .failure(let refusal): .error(ControlError(refusal))
            }
        return (outcome, snapshot, reply)
    }

    /// Carries out effects in order.
    /// - Parameters:
    ///   - done: What the event did, for the error when a save fails.
    ///   - persistent: What to save, as it was right after the event; taken from the state now
    ///     when not given.
    /// - Returns: The error the request's reply should carry: what was done, and every save
    ///   that failed. Each save is tried whatever came before it, so that the files hold all that
    ///   could be kept (a destination set while the dropped route's file cannot be replaced).
    private func perform(_ effects: [DaemonState.Effect], done: String, persistent: PersistentState? = nil) -> ControlError? {
        var failure: ControlError?
        var failedSaves: [String] = []
        var saved = persistent
        for effect in effects {
            switch effect {
            case .cue(let cue): deliver(.cue(cue))
            case .play(let pattern): deliver(.play(pattern))
            case .silence: motor.silence()
            case .destinationChanged(let coordinate): hooks.destinationChanged(coordinate)
            case .calibratingChanged(let calibrating): hooks.calibratingChanged(calibrating)
            case .planWalk(let from, let to, let profile):
                // On the thread of the fix that strayed (tens of milliseconds): fixes wait in
                // gpsd's queue meanwhile.
                guard let planning else { continue }
                let result = planning.plan(from: from, to: to, profile: WalkPlanner.Profile(rawValue: profile) ?? .foot)
                let at = now
                let more = core.withLock { core in
                    let effects = core.walkPlanned(result.mapError { DaemonState.WalkPlanFailure($0.message) }, to: to, at: at)
                    record(effects)
                    return effects
                }
                if let error = perform(more, done: "planned the walk again") { failure = failure ?? error }
            case .record: break  // recorded under the core's lock, by `record(_:)`
            case .log(let level, let message, let metadata): log(level, message, metadata)
            case .appendTrail(let append): submit(append)
            case .clearTrail(let generation):
                if let error = trailFiles?.clear(generation: generation) {
                    failure = failure ?? ControlError(.internal, "the trail could not be removed: \(error)")
                }
            case .save(let file):
                guard let store else { continue }
                if saved == nil { saved = core.withLock { $0.persistent } }
                do throws(StateStoreError) {
                    try store.save(file, from: saved!)
                } catch {
                    logger.error("cannot save \(file)", ["error": "\(error)"])
                    failedSaves.append("\(file) could not be saved: \(error)")
                }
            }
        }
        core.withLock { publish($0.state) }
        if !failedSaves.isEmpty {
            failure = failure ?? ControlError(.internal, "\(done), but " + failedSaves.joined(separator: "; "))
        }
        return failure
    }

    /// Records an event's pipeline events; called under the core's lock, so that they are
    /// written in the order the core applied them, between the samples before and after (a
    /// sample on another thread would otherwise be written first, and replay would differ).
    private func record(_ effects: [DaemonState.Effect]) {
        guard let recorder else { return }
        for case .record(let event) in effects { recorder.record(event.kind, at: event.seconds) }
    }

    private func log(_ level: DaemonState.LogLevel, _ message: String, _ metadata: [String: String]) {
        switch level {
        case .info: logger.info(message, metadata)
        case .notice: logger.notice(message, metadata)
        case .warning: logger.warning(message, metadata)
        case .error: logger.error(message, metadata)
        }
    }
}

extension Navigator.State {
    /// `allCases`, made once: the executor turns states into codes on every sample, and a
    /// generic type cannot keep a static of its own.
    fileprivate static let all = allCases
}
