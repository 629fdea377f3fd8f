@preconcurrency import Glibc
import ControlProtocol
import Geodesy
import Geomagnetism
import Guidance
import Haptics
import Heading
import IMU
import Synchronization
import SystemSupport

/// The daemon's state in one place: the navigation pipeline, the player it drives, and the
/// saved state.
///
/// Sensor events take the short way: ``sample(_:)``, ``fix(_:)`` and ``tick()`` are synchronous
/// and may be called from any thread (the sampling thread calls them 50 times a second). They
/// lock the pipeline, hand the event over, and pass what the navigator decided straight to the
/// player's mailbox: no task, no actor hop, no thread woken, no heap allocation of our own on
/// the way. Control requests go through the actor, one at a time, and take the same lock.
public actor DaemonCore: ControlHandler {
    /// What sensor events and control requests share, behind ``navigation``.
    private struct Navigation {
        var pipeline: NavigationPipeline
        /// The samples of the calibration under way; nil when none is.
        var calibrationFit: CalibrationFit?
        /// The time of the latest event, seconds since start: events never go back in time.
        var lastSeconds = 0.0
    }

    private let navigation: Mutex<Navigation>
    private let player: HapticPlayer<ContinuousClock>
    private let store: StateStore
    private var saved: PersistentState
    private let logger: Logger
    private let start = ContinuousClock.now
    private let destinationChanged: @Sendable (Coordinate?) -> Void
    private let calibratingChanged: @Sendable (Bool) -> Void
    private let recorder: Recorder?
    /// What went wrong at start (a state file set aside), for `status`.
    private let problems: [String]
    /// Why there is no IMU to read, while there is none (the sampling thread retries).
    private let imuProblem = Mutex<String?>(nil)
    /// Why there is no gpsd to read, while there is none (the GPS client retries).
    private let gpsProblem = Mutex<String?>(nil)
    /// The IMU in use, for `status`.
    private let imuReport = Mutex<StatusReport.IMU?>(nil)
    /// The navigator's state after the latest event, readable without the lock (for the
    /// sampling rate and systemd's STATUS= line).
    private let currentState = Atomic<UInt8>(0)
    /// Told when the navigator's state changes (from whichever thread changed it).
    private let stateChanges: AsyncStream<Navigator.State>.Continuation
    /// The states as they change, for systemd's STATUS= line and the log; only the newest
    /// unread one is kept.
    public nonisolated let states: AsyncStream<Navigator.State>
    /// Whether a calibration is applied to the magnetometer (saved, or built in when simulated).
    private var isCalibrated = false
    /// The mute state the pipeline was last given: the wearer's, or paused to calibrate.
    private var pipelineMuted = false

    /// A core with a pipeline, a player and saved state.
    /// - Parameters:
    ///   - destinationChanged: told of every new destination (the simulated walker heads for it).
    ///   - calibratingChanged: told when a calibration starts and ends (the simulated walker
    ///     tumbles the device meanwhile).
    public init(
        pipeline: NavigationPipeline, player: HapticPlayer<ContinuousClock>, store: StateStore, saved: PersistentState,
        logger: Logger, recorder: Recorder? = nil, problems: [String] = [],
        destinationChanged: @escaping @Sendable (Coordinate?) -> Void = { _ in },
        calibratingChanged: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.problems = problems
        self.recorder = recorder
        self.calibratingChanged = calibratingChanged
        navigation = Mutex(Navigation(pipeline: pipeline))
        self.player = player
        self.store = store
        self.saved = saved
        self.logger = logger
        self.destinationChanged = destinationChanged
        (states, stateChanges) = AsyncStream.makeStream(of: Navigator.State.self, bufferingPolicy: .bufferingNewest(1))
        currentState.store(Self.code(of: pipeline.navigator.state), ordering: .relaxed)
    }

    /// Hands one event to the pipeline, records it with the same time and what the pipeline
    /// concluded, and passes the navigator's actions to the player, all under the lock so that
    /// events reach the player in the order the navigator saw them.
    ///
    /// An event dated before the latest one (a burst's older samples after a fix) takes the
    /// latest one's time, so that the pipeline and a recording never see time run backwards;
    /// the time the burst's samples span is kept.
    private nonisolated func handle(_ kind: RecordingEvent.Kind, at instant: ContinuousClock.Instant = .now) {
        navigation.withLock { navigation in
            if case .imu(let sample) = kind { navigation.calibrationFit?.add(sample.magneticMicrotesla) }
            let seconds = max((instant - start).seconds, navigation.lastSeconds)
            navigation.lastSeconds = seconds
            let (actions, output) = navigation.pipeline.handle(RecordingEvent(seconds: seconds, kind: kind))
            recorder?.record(kind, at: seconds, live: output)
            perform(actions, state: navigation.pipeline.navigator.state)
        }
    }

    private nonisolated func perform(_ actions: Navigator.Actions, state: Navigator.State) {
        for action in actions {
            switch action {
            case .cue(let cue): player.deliver(cue: cue)
            case .play(let pattern): player.deliver(pattern: pattern)
            }
        }
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
    public nonisolated var state: Navigator.State { Self.allStates[Int(currentState.load(ordering: .relaxed))] }

    /// Whether the heading matters now: a destination is set, or a calibration is collecting
    /// samples. When it does not, the sampling thread slows down.
    public nonisolated var needsHeading: Bool {
        navigation.withLock { $0.pipeline.navigator.destination != nil || $0.calibrationFit != nil }
    }

    /// Records the calibration in use, so a replay starts from it.
    public func recordCalibration(_ calibration: MagneticCalibration?) {
        isCalibrated = calibration != nil
        if let calibration { handle(.calibration(calibration)) }
    }

    /// Restores the saved destination and mute state at startup.
    public func restore() async {
        applyMute()
        if let destination = saved.destination {
            logger.info("destination restored", ["destination": destination.description])
            destinationChanged(destination.coordinate)
            handle(.destination(destination.coordinate, name: destination.name))
        }
    }

    /// Why no IMU can be read (nil once one is): from the sampling thread, which keeps trying.
    public nonisolated func imuChanged(problem: String?) { imuProblem.withLock { $0 = problem } }

    /// The IMU in use and its counters: from the sampling thread, about once a second.
    public nonisolated func imuInUse(chips: String, statistics: IMUReader.Statistics) {
        let report = StatusReport.IMU(
            chips: chips, samples: statistics.samples, transferErrors: statistics.transferErrors,
            faults: statistics.faultedPolls, restarts: statistics.reinitialisations)
        imuReport.withLock { $0 = report }
    }

    /// Why gpsd cannot be read (nil once it can): from the GPS client's events.
    public nonisolated func gpsChanged(problem: String?) { gpsProblem.withLock { $0 = problem } }

    /// One IMU sample, taken at `instant` (a burst's samples are older than the burst); any
    /// thread.
    public nonisolated func sample(_ sample: IMUSample, at instant: ContinuousClock.Instant = .now) {
        handle(.imu(sample), at: instant)
    }

    /// One fix; any thread.
    public nonisolated func fix(_ fix: Fix) { handle(.fix(fix)) }

    /// Time passing: stale fixes, repeated warnings; any thread.
    public nonisolated func tick() {
        navigation.withLock { navigation in
            let seconds = max((ContinuousClock.now - start).seconds, navigation.lastSeconds)
            navigation.lastSeconds = seconds
            let actions = navigation.pipeline.tick(at: seconds)
            perform(actions, state: navigation.pipeline.navigator.state)
        }
    }

    /// Gives the pipeline the effective mute state when it changes: the wearer's choice, or
    /// paused while they turn the device to calibrate (the heading means nothing then).
    private func applyMute() {
        let muted = saved.muted || isCollecting
        guard muted != pipelineMuted else { return }
        pipelineMuted = muted
        handle(.muted(muted))
    }

    /// Whether a calibration is collecting samples.
    private var isCollecting: Bool { navigation.withLock { $0.calibrationFit != nil } }

    // MARK: - ControlHandler

    public func go(_ coordinate: Coordinate, name: String?) async -> Result<Void, ControlError> {
        let destination = SavedDestination(coordinate: coordinate, name: name)
        saved.destination = destination
        saved.recent.record(destination)
        destinationChanged(coordinate)
        handle(.destination(coordinate, name: name))
        logger.info("destination set", ["destination": destination.description])
        do throws(StateStoreError) {
            try store.save(destination: destination)
            try store.save(recent: saved.recent)
        } catch {
            // Guidance goes on; only the restart would forget it, so say so.
            logger.error("cannot save the destination", ["error": "\(error)"])
            return .failure(ControlError(.internal, "guiding, but the destination could not be saved: \(error)"))
        }
        return .success(())
    }

    public func goRecent(_ index: Int) async -> Result<Void, ControlError> {
        guard index >= 1, index <= saved.recent.count else {
            let count = saved.recent.count
            return .failure(
                ControlError(.notFound, "there \(count == 1 ? "is" : "are") only \(count) recent destination\(count == 1 ? "" : "s")"))
        }
        let destination = saved.recent[saved.recent.startIndex + index - 1]
        return await go(destination.coordinate, name: destination.name)
    }

    public func clear() async -> Result<Void, ControlError> {
        saved.destination = nil
        destinationChanged(nil)
        handle(.destination(nil, name: nil))
        // Whatever was buzzing for the old destination (or for a stream of `buzz`) stops now.
        player.silence()
        do throws(StateStoreError) {
            try store.save(destination: nil)
        } catch {
            logger.error("cannot save the cleared destination", ["error": "\(error)"])
            return .failure(ControlError(.internal, "cleared, but the change could not be saved: \(error)"))
        }
        return .success(())
    }

    public func status() async -> StatusReport {
        let (navigator, pipelineFix, lastHeading, courseBiasDegrees, seconds, zone) = navigation.withLock {
            ($0.pipeline.navigator, $0.pipeline.fix, $0.pipeline.lastHeading, $0.pipeline.courseBiasDegrees,
             max((ContinuousClock.now - start).seconds, $0.lastSeconds), $0.pipeline.compassZone)
        }
        let standing = navigator.fixStanding(at: seconds)
        let fix = pipelineFix.map {
            StatusReport.Fix(
                time: $0.time?.iso8601, mode: $0.mode.rawValue, latitude: $0.coordinate?.latitudeDegrees,
                longitude: $0.coordinate?.longitudeDegrees, horizontalErrorMeters: $0.horizontalErrorMeters,
                altitudeMSLMeters: $0.altitudeMSLMeters, altitudeHAEMeters: $0.altitudeHAEMeters,
                ageSeconds: standing.map { ($0.ageSeconds * 10).rounded() / 10 }, problem: standing?.problem?.rawValue)
        }
        let imu = imuProblem.withLock { $0 }
        let heading = imu != nil ? StatusReport.Heading(isReliable: false, problem: "no-imu") : lastHeading.map {
            StatusReport.Heading(
                trueDegrees: $0.trueDegrees, magneticDegrees: $0.magneticDegrees, declinationDegrees: $0.declinationDegrees,
                isReliable: $0.isReliable, biasDegrees: courseBiasDegrees, correction: $0.correction.rawValue,
                coastingSeconds: $0.coastingSeconds, problem: $0.problem?.rawValue)
        } ?? StatusReport.Heading()
        let destination = saved.destination.map {
            DestinationReport(latitude: $0.coordinate.latitudeDegrees, longitude: $0.coordinate.longitudeDegrees, name: $0.name)
        }
        return StatusReport(
            state: navigator.state.rawValue, fix: fix, heading: heading, destination: destination,
            bearingDegrees: navigator.course?.bearingDegrees, distanceMeters: navigator.course?.distanceMeters,
            errorDegrees: navigator.course?.errorDegrees,
            haptic: StatusReport.Haptic(
                intensity: navigator.cue?.intensity, sharpness: navigator.cue?.sharpness, duty: player.duty,
                pattern: player.pattern?.rawValue),
            calibration: calibrationState, isMuted: saved.muted, imu: imu == nil ? imuReport.withLock { $0 } : nil,
            problems: problems + (imu.map { ["imu: \($0); trying again"] } ?? []) + Self.zoneProblems(zone)
                + (gpsProblem.withLock { $0 }.map { ["gps: \($0); trying again"] } ?? [])
                + (player.fault.map { ["motor: \($0); retrying"] } ?? []))
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

    public func recent() async -> [SavedDestination] { Array(saved.recent) }

    public func mute(_ on: Bool) async -> Result<Void, ControlError> {
        saved.muted = on
        applyMute()
        if on { player.silence() }
        logger.info(on ? "muted" : "unmuted")
        do throws(StateStoreError) {
            try store.save(muted: on)
        } catch {
            logger.error("cannot save the mute state", ["error": "\(error)"])
            return .failure(ControlError(.internal, "\(on ? "muted" : "unmuted"), but it could not be saved: \(error)"))
        }
        return .success(())
    }

    public func buzz(_ pattern: BuzzPattern) async -> Result<Void, ControlError> {
        guard let haptic = HapticPattern(rawValue: pattern.rawValue) else {
            return .failure(ControlError(.internal, "pattern \(pattern.rawValue) has no rendering"))
        }
        // One at a time: a stream of `buzz` must not keep the motor going.
        guard !player.isPlayingPattern else {
            return .failure(ControlError(.refused, "a pattern is playing; buzz again when it has ended"))
        }
        player.deliver(pattern: haptic)
        return .success(())
    }

    // MARK: - Calibration

    public func calibrate(_ action: CalibrationAction) async -> Result<CalibrationReport, ControlError> {
        switch action {
        case .status:
            return .success(calibrationReport())
        case .start:
            guard !isCollecting else {
                return .success(calibrationReport(message: "already collecting; keep turning, then finish"))
            }
            navigation.withLock { $0.calibrationFit = CalibrationFit() }
            calibratingChanged(true)
            applyMute()
            logger.info("calibration started")
            return .success(
                calibrationReport(
                    message: "turn the device slowly through a figure-eight, every side up and down, for about 30 s; then finish"))
        case .cancel:
            guard isCollecting else { return .failure(Self.notCalibrating) }
            endCalibration()
            logger.info("calibration cancelled")
            return .success(calibrationReport(message: "cancelled; the calibration in use is unchanged"))
        case .finish:
            return await finishCalibration()
        case .reset:
            if isCollecting { endCalibration() }
            saved.calibration = nil
            isCalibrated = false
            handle(.calibration(nil))
            logger.notice("calibration reset")
            do throws(StateStoreError) {
                try store.save(calibration: nil)
            } catch {
                return .failure(ControlError(.internal, "reset, but the change could not be saved: \(error)"))
            }
            return .success(calibrationReport(message: "calibration forgotten; the heading is unreliable until you calibrate"))
        }
    }

    private static let notCalibrating = ControlError(.refused, "no calibration is running; start one first")

    private func finishCalibration() async -> Result<CalibrationReport, ControlError> {
        let (collected, modelField) = navigation.withLock { ($0.calibrationFit, $0.pipeline.modelFieldMicrotesla) }
        guard let fit = collected else { return .failure(Self.notCalibrating) }
        guard let referenceField = modelField else {
            return .failure(
                ControlError(
                    .refused,
                    "no GPS fix with a date yet: the field strength to scale to comes from WMM2025 at your position; still collecting"))
        }
        let result: (calibration: MagneticCalibration, quality: CalibrationFit.Quality)
        do throws(CalibrationFit.Refusal) {
            result = try fit.fit(referenceFieldMicrotesla: referenceField)
        } catch {
            logger.info("calibration refused", ["reason": "\(error)"])
            return .failure(ControlError(.refused, "\(error); still collecting"))
        }
        let calibration = SavedCalibration(
            calibration: result.calibration, createdAt: UTCTime(seconds: Int64(time(nil))), quality: .init(result.quality))
        saved.calibration = calibration
        isCalibrated = true
        handle(.calibration(result.calibration))
        endCalibration()
        player.deliver(pattern: .calibrationDone)
        logger.notice(
            "calibration stored",
            ["fitError": "\(result.quality.fitErrorPercent)", "coverage": "\(result.quality.coveragePercent)"])
        do throws(StateStoreError) {
            try store.save(calibration: calibration)
        } catch {
            logger.error("cannot save the calibration", ["error": "\(error)"])
            return .failure(ControlError(.internal, "calibrated and in use, but it could not be saved: \(error)"))
        }
        return .success(calibrationReport(message: "calibration stored and in use"))
    }

    private func endCalibration() {
        navigation.withLock { $0.calibrationFit = nil }
        calibratingChanged(false)
        applyMute()
    }

    /// `none`, `stored` (a calibration is in use) or `running`.
    private var calibrationState: String {
        isCollecting ? "running" : isCalibrated ? "stored" : "none"
    }

    private func calibrationReport(message: String? = nil) -> CalibrationReport {
        let quality = saved.calibration.map {
            CalibrationReport.Quality(
                fitErrorPercent: $0.quality.fitErrorPercent, coveragePercent: $0.quality.coveragePercent,
                fittedFieldMicrotesla: $0.quality.fittedFieldMicrotesla,
                referenceFieldMicrotesla: $0.quality.referenceFieldMicrotesla, sampleCount: $0.quality.sampleCount)
        }
        let fit = navigation.withLock { $0.calibrationFit }
        return CalibrationReport(
            state: calibrationState, samples: fit?.count, octants: fit?.octantCounts, quality: quality,
            created: saved.calibration?.createdAt.iso8601, message: message)
    }
}
