import ControlProtocol
import Geodesy

/// What the control server asks of the daemon. The daemon implements it (typically an actor
/// around the navigator and the state store); tests implement it with a fake.
///
/// Arguments arrive checked: a coordinate in range, a name that keeps ``PlaceName``'s rules
/// (trimmed, printable, at most ``PlaceName/maximumLength`` characters).
public protocol ControlHandler: Sendable {
    /// Starts guiding to `coordinate`.
    ///
    /// - Returns: Success, or the error to send the client (e.g. `internal` when the
    ///   destination could not be saved).
    func go(_ coordinate: Coordinate, name: String?) async -> Result<Void, ControlError>

    /// Starts guiding to a recent destination.
    ///
    /// - Parameter index: 1 for the most recent, up to ``ControlRequest/recentCount``.
    /// - Returns: Success, or `not-found` when the list is shorter.
    func goRecent(_ index: Int) async -> Result<Void, ControlError>

    /// Stops guiding.
    ///
    /// - Returns: Success, or the error to send the client.
    func clear() async -> Result<Void, ControlError>

    /// The current state, for a `STATUS` reply.
    func status() async -> StatusReport

    /// The recent destinations, most recent first, for a `RECENT` reply.
    func recent() async -> [SavedDestination]

    /// Mutes or unmutes guidance vibration (patterns still play), and remembers it.
    func mute(_ on: Bool) async -> Result<Void, ControlError>

    /// Carries out one calibration step.
    ///
    /// - Returns: Where calibration stands afterwards, or the error to send (e.g. `refused`
    ///   saying which directions are missing).
    func calibrate(_ action: CalibrationAction) async -> Result<CalibrationReport, ControlError>

    /// Plays a pattern now, even when muted: the wearer asked for it.
    func buzz(_ pattern: BuzzPattern) async -> Result<Void, ControlError>

    /// Starts guiding to the place called `name` (case-insensitive), else the recent
    /// destination of that name.
    ///
    /// - Returns: Success, or `not-found` (with a suggestion for a near miss).
    func goPlace(_ name: String) async -> Result<Void, ControlError>

    /// Carries out a `route` request.
    ///
    /// - Returns: Where the route stands afterwards (nil: none is loaded), or the error to send.
    func route(_ action: RouteAction) async -> Result<RouteReport?, ControlError>

    /// The named places, in the order they were made, for a `PLACES` reply.
    func places() async -> [SavedDestination]

    /// Carries out a `place` request other than `list`.
    ///
    /// - Returns: For `mark`, where the place was put and how sure that is; nil for the
    ///   others; or the error to send.
    func place(_ action: PlaceAction) async -> Result<PlaceMarkReport?, ControlError>

    /// Carries out a `track` request.
    ///
    /// - Returns: For `export`, a page of the trail; nil for `clear`; or the error to send.
    func track(_ action: TrackAction) async -> Result<TrackReport?, ControlError>

    /// Guides back along the trail of the last `minutes` (nil: since the daemon started).
    ///
    /// - Returns: The route made of it, or the error to send (`refused` with no trail).
    func back(minutes: Double?) async -> Result<RouteReport?, ControlError>
}
