import ControlProtocol
import Core
import Daemon
import Geodesy
import Guidance
import Haptics
import Heading

/// Drives ``DaemonState`` as ``DaemonCore`` does, one request or sensor event at a time, and
/// shows what came out in the wire's terms: the replies built by ``DaemonReplies`` from the
/// state after the event, the saves as the items they write. The core's tests read as the
/// protocol does, with no executor, clock or IO.
struct Driven<Reply> {
    /// The effects, in order.
    var effects: [DaemonState.Effect]
    /// The reply, as the wire would carry it.
    var reply: Result<Reply, ControlError>
    /// The items saved, in order, with the contents written.
    var saves: [SavedItem]
}

/// A state file's item as a save writes it.
enum SavedItem: Equatable {
    /// `target.json`: a destination, a route, or neither.
    case target(SavedDestination?, SavedRoute?)
    case recent(RecentDestinations)
    case muted(Bool)
    case calibration(SavedCalibration?)
    case places(PlaceBook)

    /// The item `file` holds in `state`.
    init(_ file: StateFile, _ state: PersistentState) {
        switch file {
        case .target: self = .target(state.destination, state.route)
        case .recent: self = .recent(state.recent)
        case .mute: self = .muted(state.muted)
        case .calibration: self = .calibration(state.calibration)
        case .places: self = .places(state.places)
        }
    }

    /// The items saved by `effects`, from `state`.
    static func saved(by effects: [DaemonState.Effect], in state: PersistentState) -> [SavedItem] {
        effects.compactMap { if case .save(let file) = $0 { SavedItem(file, state) } else { nil } }
    }
}

extension DaemonState {
    /// A request at `seconds`, its reply extracted by `extract` from the wire reply.
    mutating func drive<Reply>(
        _ request: ControlRequest, at seconds: Double, utcSeconds: Int64 = 0, patternPlaying: Bool = false,
        storedTrail: [UInt8]? = [], _ extract: (ControlReply) -> Reply
    ) -> Driven<Reply> {
        let outcome = handle(
            request,
            RequestContext(seconds: seconds, utcSeconds: utcSeconds, isPatternPlaying: patternPlaying, storedTrail: storedTrail))
        let reply: Result<Reply, ControlError>
        switch outcome.reply {
        case .success(let answer):
            reply = .success(extract(DaemonReplies.reply(answer, state: self, at: seconds, motor: SilentMotor())))
        case .failure(let refusal):
            reply = .failure(ControlError(refusal))
        }
        return Driven(effects: outcome.effects, reply: reply, saves: SavedItem.saved(by: outcome.effects, in: persistent))
    }

    mutating func go(_ coordinate: Coordinate, name: String?, at seconds: Double) -> Driven<Void> {
        drive(.go(latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees, name: name), at: seconds) { _ in }
    }

    mutating func goRecent(_ index: Int, at seconds: Double) -> Driven<Void> { drive(.goRecent(index), at: seconds) { _ in } }

    mutating func goPlace(_ name: String, at seconds: Double) -> Driven<Void> { drive(.goPlace(name), at: seconds) { _ in } }

    mutating func clear(at seconds: Double) -> Driven<Void> { drive(.clear, at: seconds) { _ in } }

    mutating func mute(_ on: Bool, at seconds: Double) -> Driven<Void> { drive(.mute(on), at: seconds) { _ in } }

    mutating func buzz(_ pattern: BuzzPattern, patternPlaying: Bool) -> Driven<Void> {
        drive(.buzz(pattern), at: lastSeconds, patternPlaying: patternPlaying) { _ in }
    }

    mutating func calibrate(_ action: CalibrationAction, at seconds: Double, utcSeconds: Int64) -> Driven<CalibrationReport?> {
        drive(.calibrate(action), at: seconds, utcSeconds: utcSeconds) { if case .calibration(let report) = $0 { report } else { nil } }
    }

    mutating func route(_ action: RouteAction, at seconds: Double) -> Driven<RouteReport?> {
        drive(.route(action), at: seconds) { if case .route(let report) = $0 { report } else { nil } }
    }

    mutating func place(_ action: PlaceAction, at seconds: Double) -> Driven<PlaceMarkReport?> {
        drive(.place(action), at: seconds) { if case .placeMarked(let report) = $0 { report } else { nil } }
    }

    /// The `STATUS` reply at `seconds`.
    func status(at seconds: Double, duty: Double = 0, pattern: HapticPattern? = nil, motorFault: String? = nil) -> StatusReport {
        DaemonReplies.status(of: self, at: seconds, duty: duty, pattern: pattern, motorFault: motorFault)
    }

    /// The `CALIBRATION` reply without a note.
    func calibrationReport() -> CalibrationReport { DaemonReplies.calibration(of: self, note: nil) }
}
