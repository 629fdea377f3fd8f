@preconcurrency import Glibc
import ControlProtocol
import Geodesy
import Guidance
import Haptics
import Heading
import SystemSupport

/// The daemon's state in one place: the navigation pipeline, the player it drives, and the
/// saved state. The sensor loops, the tick and the control server all come through here, one
/// event at a time.
public actor DaemonCore: ControlHandler {
    private var pipeline: NavigationPipeline
    private let player: HapticPlayer<ContinuousClock>
    private let store: StateStore
    private var saved: PersistentState
    private let logger: Logger
    private let start = ContinuousClock.now
    private let destinationChanged: @Sendable (Coordinate?) -> Void
    private let calibratingChanged: @Sendable (Bool) -> Void
    private let recorder: Recorder?
    /// The samples of the calibration under way; nil when none is.
    private var calibrationFit: CalibrationFit?
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
        logger: Logger, recorder: Recorder? = nil, destinationChanged: @escaping @Sendable (Coordinate?) -> Void = { _ in },
        calibratingChanged: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.recorder = recorder
        self.calibratingChanged = calibratingChanged
        self.pipeline = pipeline
        self.player = player
        self.store = store
        self.saved = saved
        self.logger = logger
        self.destinationChanged = destinationChanged
    }

    private var now: Double { (ContinuousClock.now - start).seconds }

    /// Hands one event to the pipeline and records it, with the same time and what the
    /// pipeline concluded.
    private func handle(_ kind: RecordingEvent.Kind) -> [Navigator.Action] {
        let seconds = now
        let (actions, output) = pipeline.handle(RecordingEvent(seconds: seconds, kind: kind))
        recorder?.record(kind, at: seconds, live: output)
        return actions
    }

    /// Records the calibration in use, so a replay starts from it.
    public func recordCalibration(_ calibration: MagneticCalibration?) {
        isCalibrated = calibration != nil
        if let calibration { _ = handle(.calibration(calibration)) }
    }

    /// Restores the saved destination and mute state at startup.
    public func restore() async {
        await applyMute()
        if let destination = saved.destination {
            logger.info("destination restored", ["destination": destination.description])
            destinationChanged(destination.coordinate)
            await perform(handle(.destination(destination.coordinate, name: destination.name)))
        }
    }

    /// One IMU sample.
    public func imu(_ sample: IMUSample) async {
        calibrationFit?.add(sample.magneticMicrotesla)
        await perform(handle(.imu(sample)))
    }

    /// One fix.
    public func fix(_ fix: Fix) async {
        await perform(handle(.fix(fix)))
    }

    /// Time passing.
    public func tick() async { await perform(pipeline.tick(at: now)) }

    /// The navigator's state, for systemd's STATUS= line.
    public var stateName: String { pipeline.navigator.state.rawValue }

    /// Gives the pipeline the effective mute state when it changes: the wearer's choice, or
    /// paused while they turn the device to calibrate (the heading means nothing then).
    private func applyMute() async {
        let muted = saved.muted || calibrationFit != nil
        guard muted != pipelineMuted else { return }
        pipelineMuted = muted
        await perform(handle(.muted(muted)))
    }

    private func perform(_ actions: [Navigator.Action]) async {
        for action in actions {
            switch action {
            case .cue(let cue): await player.setCue(cue)
            case .play(let pattern): await player.play(pattern)
            }
        }
    }

    // MARK: - ControlHandler

    public func go(_ coordinate: Coordinate, name: String?) async -> Result<Void, ControlError> {
        let destination = SavedDestination(coordinate: coordinate, name: name)
        saved.destination = destination
        saved.recent.record(destination)
        destinationChanged(coordinate)
        await perform(handle(.destination(coordinate, name: name)))
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
        await perform(handle(.destination(nil, name: nil)))
        do throws(StateStoreError) {
            try store.save(destination: nil)
        } catch {
            logger.error("cannot save the cleared destination", ["error": "\(error)"])
            return .failure(ControlError(.internal, "cleared, but the change could not be saved: \(error)"))
        }
        return .success(())
    }

    public func status() async -> StatusReport {
        let navigator = pipeline.navigator
        let fix = pipeline.fix.map {
            StatusReport.Fix(
                time: $0.time?.iso8601, mode: $0.mode.rawValue, latitude: $0.coordinate?.latitudeDegrees,
                longitude: $0.coordinate?.longitudeDegrees, horizontalErrorMeters: $0.horizontalErrorMeters)
        }
        let heading = pipeline.lastHeading.map {
            StatusReport.Heading(
                trueDegrees: $0.trueDegrees, magneticDegrees: $0.magneticDegrees, declinationDegrees: $0.declinationDegrees,
                isReliable: $0.isReliable)
        } ?? StatusReport.Heading()
        let destination = saved.destination.map {
            DestinationReport(latitude: $0.coordinate.latitudeDegrees, longitude: $0.coordinate.longitudeDegrees, name: $0.name)
        }
        return StatusReport(
            state: navigator.state.rawValue, fix: fix, heading: heading, destination: destination,
            bearingDegrees: navigator.course?.bearingDegrees, distanceMeters: navigator.course?.distanceMeters,
            errorDegrees: navigator.course?.errorDegrees,
            haptic: StatusReport.Haptic(
                intensity: navigator.cue?.intensity, sharpness: navigator.cue?.sharpness, duty: await player.duty,
                pattern: await player.pattern?.rawValue),
            calibration: calibrationState, isMuted: saved.muted)
    }

    public func recent() async -> [SavedDestination] { Array(saved.recent) }

    public func mute(_ on: Bool) async -> Result<Void, ControlError> {
        saved.muted = on
        await applyMute()
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
        await player.play(haptic)
        return .success(())
    }

    // MARK: - Calibration

    public func calibrate(_ action: CalibrationAction) async -> Result<CalibrationReport, ControlError> {
        switch action {
        case .status:
            return .success(calibrationReport())
        case .start:
            guard calibrationFit == nil else {
                return .success(calibrationReport(message: "already collecting; keep turning, then finish"))
            }
            calibrationFit = CalibrationFit()
            calibratingChanged(true)
            await applyMute()
            logger.info("calibration started")
            return .success(
                calibrationReport(
                    message: "turn the device slowly through a figure-eight, every side up and down, for about 30 s; then finish"))
        case .cancel:
            guard calibrationFit != nil else { return .failure(Self.notCalibrating) }
            await endCalibration()
            logger.info("calibration cancelled")
            return .success(calibrationReport(message: "cancelled; the calibration in use is unchanged"))
        case .finish:
            return await finishCalibration()
        case .reset:
            if calibrationFit != nil { await endCalibration() }
            saved.calibration = nil
            isCalibrated = false
            _ = handle(.calibration(nil))
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
        guard let fit = calibrationFit else { return .failure(Self.notCalibrating) }
        guard let referenceField = pipeline.modelFieldMicrotesla else {
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
        _ = handle(.calibration(result.calibration))
        await endCalibration()
        await player.play(.calibrationDone)
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

    private func endCalibration() async {
        calibrationFit = nil
        calibratingChanged(false)
        await applyMute()
    }

    /// `none`, `stored` (a calibration is in use) or `running`.
    private var calibrationState: String {
        calibrationFit != nil ? "running" : isCalibrated ? "stored" : "none"
    }

    private func calibrationReport(message: String? = nil) -> CalibrationReport {
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
}
