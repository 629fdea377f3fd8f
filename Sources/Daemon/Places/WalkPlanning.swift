import ControlProtocol
import Geodesy
import Guidance
import PlaceIndex
import Synchronization

/// The daemon's side of walking routes (issue 41): plans one walk at a time with Routino
/// (``WalkPlanner``) over the routes in the state directory, and decides what a plain `go`
/// does (the `walk` setting). A plan that comes while another runs waits for it: each takes
/// tens of milliseconds and at most ``WalkPlanner/timeoutSeconds``.
public final class WalkPlanning: Sendable {
    /// The planner.
    let planner: WalkPlanner
    /// What a plain `go` does.
    public let setting: Configuration.Walk
    /// Held for the whole of a plan: one router at a time, one errors file.
    private let running = Mutex(())
    /// Whether a stop has begun: a plan under way ends and none starts.
    private let stopping = Atomic(false)

    /// A destination nearer than this is guided to straight on `auto`, metres.
    public static let straightUnderMeters = 150.0

    /// Planning over the routes in `stateDirectory`.
    public init(stateDirectory: String, setting: Configuration.Walk, router: String? = WalkPlanner.findRouter()) {
        planner = WalkPlanner(stateDirectory: stateDirectory, router: router)
        self.setting = setting
    }

    /// Whether routes were imported: one stat.
    public var hasRoutes: Bool { planner.hasRoutes }

    /// Whether a `go` from `position` to `destination` with `walk` (nil: the setting) plans a
    /// walk. An explicit true always does; the setting only when routes exist, and on `auto`
    /// only from a known position 150 m or more away.
    public func walks(_ walk: Bool?, from position: Coordinate?, to destination: Coordinate) -> Bool {
        if let walk { return walk }
        switch setting {
        case .never: return false
        case .always: return position != nil && hasRoutes
        case .auto:
            guard let position, hasRoutes else { return false }
            return Geodesic.wgs84.inverse(from: position, to: destination).distanceMeters >= Self.straightUnderMeters
        }
    }

    /// A walk from `start` to `end`, or the error to answer with.
    public func plan(from start: Coordinate, to end: Coordinate, profile: WalkPlanner.Profile) -> Result<WalkPlan, ControlError> {
        running.withLock { _ in
            guard !stopping.load(ordering: .relaxed) else { return .failure(ControlError(.refused, "the daemon is stopping")) }
            do throws(WalkPlanner.Failure) {
                return .success(try planner.plan(from: start, to: end, profile: profile) { stopping.load(ordering: .relaxed) })
            } catch {
                let code: ControlErrorCode =
                    switch error {
                    case .noRoutes, .noRouter, .farFromWays, .noPath: .notFound
                    case .tooLong: .refused
                    case .timedOut, .routerFailed, .damaged: .internal
                    }
                return .failure(ControlError(code, error.description))
            }
        }
    }

    /// At stop: a plan under way ends within a quarter of a second, and none starts.
    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// A plan as the `PLAN` reply gives it.
    public static func report(_ plan: WalkPlan, profile: String, following: Bool) -> WalkPlanReport {
        WalkPlanReport(
            distanceMeters: DaemonReplies.tenths(plan.distanceMeters), durationSeconds: plan.durationSeconds.rounded(),
            profile: profile, isFollowing: following,
            shape: plan.shape.map { [DaemonReplies.degrees($0.latitudeDegrees), DaemonReplies.degrees($0.longitudeDegrees)] },
            turns: plan.turns.map { turn($0, distanceMeters: $0.distanceMeters) })
    }

    /// A turn as the wire gives it, `distanceMeters` away.
    static func turn(_ turn: WalkPlan.Turn, distanceMeters: Double) -> TurnReport {
        TurnReport(
            latitude: DaemonReplies.degrees(turn.coordinate.latitudeDegrees),
            longitude: DaemonReplies.degrees(turn.coordinate.longitudeDegrees), turnDegrees: DaemonReplies.tenths(turn.turnDegrees),
            street: turn.street, distanceMeters: DaemonReplies.tenths(distanceMeters),
            instruction: turn.instruction(inMeters: distanceMeters))
    }
}
