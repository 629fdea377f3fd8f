@preconcurrency import Glibc
import ControlProtocol
import Geodesy
import Guidance
import Haptics
import Heading
import IMU
import Synchronization
import SystemSupport

/// Carries out what ``DaemonState`` decides: the one place where the daemon's decisions meet
/// its player, state store, logger, recorder and clock.
///
/// Sensor events take the short way: ``sample(_:at:)``, ``fix(_:)`` and ``tick()`` are
/// synchronous and may be called from any thread (the sampling thread calls them 50 times a
/// second). They lock the state, hand the event over, and pass what the navigator decided
/// straight to the player's mailbox: no task, no actor hop, no thread woken, no heap allocation
/// of our own on the way. Control requests take the same lock for the state's transition only,
/// and are carried out one at a time (``requests``), so that their saves land in the order of
/// their transitions while the sampling thread never waits for a save.
public final class DaemonCore: ControlHandler {
    private let core: Mutex<DaemonState>
    /// Held for the whole of a control request, saves included.
    private let requests = Mutex(())
    private let player: HapticPlayer<ContinuousClock>
    private let store: StateStore
    private let logger: Logger
    private let recorder: Recorder?
    /// The breadcrumb trail, fed every fix; nil when none is kept (tests).
    private let trail: TrailStore?
    /// The last trail error logged, so that a failing card is logged once, not every minute.
    private let trailError = Mutex<Errno?>(nil)
    private let start: ContinuousClock.Instant
    private let destinationChanged: @Sendable (Coordinate?) -> Void
    private let calibratingChanged: @Sendable (Bool) -> Void
    /// The navigator's state after the latest event, readable without the lock (for the
    /// sampling rate and systemd's STATUS= line).
    private let currentState = Atomic<UInt8>(0)
    /// Told when the navigator's state changes (from whichever thread changed it).
    private let stateChanges: AsyncStream<Navigator.State>.Continuation
    /// The states as they change, for systemd's STATUS= line and the log; only the newest
    /// unread one is kept.
    public let states: AsyncStream<Navigator.State>

    /// A core around a state, with what carries out its effects.
    /// - Parameters:
    ///   - start: The instant event times count from.
    ///   - destinationChanged: told of every new destination (the simulated walker heads for it).
    ///   - calibratingChanged: told when a calibration starts and ends (the simulated walker
    ///     tumbles the device meanwhile).
    public init(
        state: DaemonState, player: HapticPlayer<ContinuousClock>, store: StateStore, logger: Logger,
        recorder: Recorder? = nil, trail: TrailStore? = nil, start: ContinuousClock.Instant = .now,
        destinationChanged: @escaping @Sendable (Coordinate?) -> Void = { _ in },
        calibratingChanged: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        core = Mutex(state)
        self.player = player
        self.store = store
        self.logger = logger
        self.recorder = recorder
        self.trail = trail
        self.start = start
        self.destinationChanged = destinationChanged
        self.calibratingChanged = calibratingChanged
        (states, stateChanges) = AsyncStream.makeStream(of: Navigator.State.self, bufferingPolicy: .bufferingNewest(1))
        currentState.store(Self.code(of: state.state), ordering: .relaxed)
    }

    private func seconds(_ instant: ContinuousClock.Instant = .now) -> Double { (instant - start).seconds }

    // MARK: - Sensors

    /// One IMU sample, taken at `instant` (a burst's samples are older than the burst); any
    /// thread.
    public func sample(_ sample: IMUSample, at instant: ContinuousClock.Instant = .now) {
        sensor(.imu(sample), at: instant)
    }

    /// One fix; any thread. A fix that moves a route on also saves its progress, in the order
    /// of the requests' saves (so on the GPS thread, never the sampling thread).
    public func fix(_ fix: Fix) {
        if let trail { noteTrail(trail.record(fix, at: seconds())) }
        guard sensor(.fix(fix), at: .now) else { return }
        requests.withLock { _ in
            let now = seconds()
            _ = perform(core.withLock { $0.routeProgress(at: now) })
        }
    }

    /// Time passing: stale fixes, repeated warnings; any thread.
    public func tick() {
        let now = seconds()
        core.withLock { core in
            deliver(core.tick(at: now))
            publish(core.state)
        }
    }

    /// Under the lock, so that events reach the player and the recording in the order the
    /// navigator saw them.
    ///
    /// - Returns: Whether the event moved a route on (``DaemonState/routeEvent``).
    @discardableResult
    private func sensor(_ kind: RecordingEvent.Kind, at instant: ContinuousClock.Instant) -> Bool {
        let at = seconds(instant)
        return core.withLock { core in
            let (actions, event, output, routeRecord) = core.sensor(kind, at: at)
            if let routeRecord { recorder?.record(routeRecord.kind, at: routeRecord.seconds) }
            recorder?.record(event.kind, at: event.seconds, live: output)
            deliver(actions)
            publish(core.state)
            return core.routeEvent != nil
        }
    }

    private func deliver(_ actions: Navigator.Actions) {
        for action in actions {
            switch action {
            case .cue(let cue): player.deliver(cue: cue)
            case .play(let pattern): player.deliver(pattern: pattern)
            }
        }
    }

    private func publish(_ state: Navigator.State) {
        let code = Self.code(of: state)
        if currentState.exchange(code, ordering: .relaxed) != code { stateChanges.yield(state) }
    }

    /// The states by their index in `allCases`, the code kept in `currentState`.
    private static let allStates = Navigator.State.allCases
    private static func code(of state: Navigator.State) -> UInt8 {
        // Every state is among `allCases`.
        UInt8(allStates.firstIndex(of: state)!)
    }

    /// The navigator's state after the latest event; any thread, no lock.
    public var state: Navigator.State { Self.allStates[Int(currentState.load(ordering: .relaxed))] }

    /// Whether the heading matters now: a destination is set, or a calibration is collecting
    /// samples. When it does not, the sampling thread slows down.
    public var needsHeading: Bool { core.withLock { $0.needsHeading } }

    /// Why no IMU can be read (nil once one is): from the sampling thread, which keeps trying.
    public func imuChanged(problem: String?) {
        core.withLock { core in
            if core.imuProblem != problem { core.imuMissing(problem) }
        }
    }

    /// The IMU in use and its counters: from the sampling thread, about once a second.
    public func imuInUse(chips: String, statistics: IMUReader.Statistics) {
        let report = StatusReport.IMU(
            chips: chips, samples: statistics.samples, transferErrors: statistics.transferErrors,
            faults: statistics.faultedPolls, restarts: statistics.reinitialisations)
        core.withLock { $0.imuInUse(report) }
    }

    /// Why gpsd cannot be read (nil once it can): from the GPS client's events.
    public func gpsChanged(problem: String?) { core.withLock { $0.gpsMissing(problem) } }

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

    /// At stop: the waiting trail points appended.
    public func stop() { if let trail { noteTrail(trail.flush()) } }

    // MARK: - Start

    /// At start: the calibration in use recorded, the mute state applied, the saved
    /// destination restored.
    public func start(calibration: MagneticCalibration?) {
        let now = seconds()
        requests.withLock { _ in
            _ = perform(core.withLock { $0.start(calibration: calibration, at: now) })
        }
    }

    // MARK: - Effects

    /// Carries out effects in order.
    /// - Returns: The first failed save's error, as the request's reply should carry it.
    @discardableResult
    private func perform(_ effects: [DaemonState.Effect]) -> ControlError? {
        var failure: ControlError?
        for effect in effects {
            switch effect {
            case .cue(let cue): player.deliver(cue: cue)
            case .play(let pattern): player.deliver(pattern: pattern)
            case .silence: player.silence()
            case .destinationChanged(let coordinate): destinationChanged(coordinate)
            case .calibratingChanged(let calibrating): calibratingChanged(calibrating)
            case .record(let event): recorder?.record(event.kind, at: event.seconds)
            case .log(let level, let message, let metadata): log(level, message, metadata)
            case .save(let save):
                // After a failed save the rest of that request's saves are not tried: the
                // reply says what was not kept.
                guard failure == nil else { continue }
                do throws(StateStoreError) {
                    try write(save.change)
                } catch {
                    logger.error(save.failureLog, ["error": "\(error)"])
                    failure = ControlError(.internal, "\(save.failureReply): \(error)")
                }
            }
        }
        core.withLock { publish($0.state) }
        return failure
    }

    private func write(_ change: DaemonState.Save.Change) throws(StateStoreError) {
        switch change {
        case .destination(let destination): try store.save(destination: destination)
        case .recent(let recent): try store.save(recent: recent)
        case .muted(let muted): try store.save(muted: muted)
        case .calibration(let calibration): try store.save(calibration: calibration)
        case .route(let route): try store.save(route: route)
        case .places(let places): try store.save(places: places)
        }
    }

    private func log(_ level: DaemonState.LogLevel, _ message: String, _ metadata: [String: String]) {
        switch level {
        case .info: logger.info(message, metadata)
        case .notice: logger.notice(message, metadata)
        case .warning: logger.warning(message, metadata)
        case .error: logger.error(message, metadata)
        }
    }

    /// One request: the state's transition under its lock, then its effects; a failed save
    /// turns the reply into the error it carries.
    private func request<Reply>(_ transition: (inout DaemonState, Double) -> DaemonState.Outcome<Reply>) -> Result<
        Reply, ControlError
    > {
        let now = seconds()
        return requests.withLock { _ in
            let outcome = core.withLock { transition(&$0, now) }
            if let failure = perform(outcome.effects) { return .failure(failure) }
            return outcome.reply
        }
    }

    // MARK: - ControlHandler

    public func go(_ coordinate: Coordinate, name: String?) async -> Result<Void, ControlError> {
        request { $0.go(coordinate, name: name, at: $1) }
    }

    public func goRecent(_ index: Int) async -> Result<Void, ControlError> { request { $0.goRecent(index, at: $1) } }

    public func clear() async -> Result<Void, ControlError> { request { $0.clear(at: $1) } }

    public func mute(_ on: Bool) async -> Result<Void, ControlError> { request { $0.mute(on, at: $1) } }

    public func buzz(_ pattern: BuzzPattern) async -> Result<Void, ControlError> {
        let playing = player.isPlayingPattern
        return request { state, _ in state.buzz(pattern, patternPlaying: playing) }
    }

    public func calibrate(_ action: CalibrationAction) async -> Result<CalibrationReport, ControlError> {
        let utc = Int64(time(nil))
        return request { $0.calibrate(action, at: $1, utcSeconds: utc) }
    }

    public func status() async -> StatusReport {
        let now = seconds()
        let (duty, pattern, fault) = (player.duty, player.pattern, player.fault.map { "\($0)" })
        return core.withLock { $0.status(at: now, duty: duty, pattern: pattern, motorFault: fault) }
    }

    public func recent() async -> [SavedDestination] { core.withLock { Array($0.saved.recent) } }

    public func goPlace(_ name: String) async -> Result<Void, ControlError> { request { $0.goPlace(name, at: $1) } }

    public func route(_ action: RouteAction) async -> Result<RouteReport?, ControlError> {
        request { $0.route(action, at: $1) }
    }

    public func places() async -> [SavedDestination] { core.withLock { Array($0.saved.places) } }

    public func track(_ action: TrackAction) async -> Result<TrackReport?, ControlError> {
        guard let trail else { return .failure(ControlError(.refused, "this daemon keeps no trail")) }
        switch action {
        case .clear:
            if let error = trail.clear() { return .failure(ControlError(.internal, "the trail could not be removed: \(error)")) }
            logger.info("trail cleared")
            return .success(nil)
        case .export(let since, let until, let cursorText):
            var cursor: TrailStore.Cursor?
            if let cursorText {
                let parts = cursorText.split(separator: ":")
                guard parts.count == 2, let rotation = Int(parts[0]), let offset = Int(parts[1]) else {
                    return .failure(ControlError(.badArgument, "cursor must be the previous page's next"))
                }
                cursor = TrailStore.Cursor(rotation: rotation, offset: offset)
            }
            do throws(TrailStore.PageError) {
                let page = try trail.page(
                    from: cursor, since: since ?? -.infinity, until: until ?? .infinity, limit: TrackAction.pagePoints)
                return .success(
                    TrackReport(
                        points: page.points.map(Self.report), next: page.next.map { "\($0.rotation):\($0.offset)" }))
            } catch {
                return .failure(ControlError(.refused, "the trail was rotated or cleared during the export; export again"))
            }
        }
    }

    private static func report(_ point: TrailPoint) -> TrackReport.Point {
        TrackReport.Point(
            seconds: point.utcSeconds, latitude: point.coordinate.latitudeDegrees, longitude: point.coordinate.longitudeDegrees,
            elevationMeters: point.elevationMeters, horizontalErrorMeters: point.horizontalErrorMeters, hdop: point.hdop,
            satellites: point.satellites, startsSegment: point.startsSegment)
    }

    public func back(minutes: Double?) async -> Result<RouteReport?, ControlError> {
        guard let trail else { return .failure(ControlError(.refused, "this daemon keeps no trail")) }
        let since = minutes.map { (trail.latestSeconds ?? 0) - $0 * 60 } ?? trail.sessionStartSeconds ?? .infinity
        let waypoints = BackRoute.waypoints(from: trail.points(since: since).map(\.coordinate))
        guard !waypoints.isEmpty else {
            return .failure(
                ControlError(
                    .refused,
                    minutes == nil
                        ? "no trail since the daemon started: it keeps one while it has a fix; try back --minutes N"
                        : "no trail in the last \(DecimalFormat.fixed(minutes ?? 0, fractionDigits: 0)) minutes"))
        }
        return request { $0.route(.load(name: "back", waypoints: waypoints), at: $1) }
    }

    public func place(_ action: PlaceAction) async -> Result<PlaceMarkReport?, ControlError> {
        request { $0.place(action, at: $1) }
    }
}
