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
    private let recorder: Recorder?

    /// A core with a pipeline, a player and saved state.
    /// - Parameter destinationChanged: told of every new destination (the simulated walker
    ///   heads for it).
    public init(
        pipeline: NavigationPipeline, player: HapticPlayer<ContinuousClock>, store: StateStore, saved: PersistentState,
        logger: Logger, recorder: Recorder? = nil, destinationChanged: @escaping @Sendable (Coordinate?) -> Void = { _ in }
    ) {
        self.recorder = recorder
        self.pipeline = pipeline
        self.player = player
        self.store = store
        self.saved = saved
        self.logger = logger
        self.destinationChanged = destinationChanged
    }

    private var now: Double { (ContinuousClock.now - start).seconds }

    /// Hands one event to the pipeline, recording it with the same time first.
    private func handle(_ kind: RecordingEvent.Kind) -> [Navigator.Action] {
        let seconds = now
        recorder?.record(kind, at: seconds)
        return pipeline.handle(RecordingEvent(seconds: seconds, kind: kind)).actions
    }

    /// Records the calibration in use, so a replay starts from it.
    public func recordCalibration(_ calibration: MagneticCalibration?) {
        if let calibration { _ = handle(.calibration(calibration)) }
    }

    /// Restores the saved destination and mute state at startup.
    public func restore() async {
        if saved.muted { await perform(pipeline.setMuted(true, at: now)) }
        if let destination = saved.destination {
            logger.info("destination restored", ["destination": destination.description])
            destinationChanged(destination.coordinate)
            await perform(handle(.destination(destination.coordinate, name: destination.name)))
        }
    }

    /// One IMU sample.
    public func imu(_ sample: IMUSample) async {
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
            haptic: StatusReport.Haptic(intensity: navigator.cue?.intensity, sharpness: navigator.cue?.sharpness),
            calibration: saved.calibration == nil ? "none" : "stored", isMuted: navigator.isMuted)
    }

    public func recent() async -> [SavedDestination] { Array(saved.recent) }
}
