import ControlProtocol

/// What the control server asks of the daemon: one request in, one reply out. The daemon's
/// executor (``DaemonCore``) implements it; tests implement it with a fake.
///
/// Requests arrive checked (``ControlRequest/init(line:)``): coordinates in range, names that
/// keep ``PlaceName``'s rules. `watch` never arrives: the server runs a client's watch itself,
/// asking for `status` at the rate the client chose. Called on the client's own thread, which
/// waits for the answer (milliseconds: a transition, a save, a search of the map).
public protocol ControlHandler: Sendable {
    /// Carries out one request.
    ///
    /// - Returns: The reply line's content: `OK`, a report, or the error to send the client
    ///   (e.g. `internal` when something could not be saved).
    func handle(_ request: ControlRequest) -> ControlReply
}
