import ControlProtocol
import Geodesy

/// What the control server asks of the daemon. The daemon implements it (typically an actor
/// around the navigator and the state store); tests implement it with a fake.
///
/// Arguments arrive checked: a coordinate in range, a name of at most
/// ``ControlRequest/maximumNameLength`` characters.
public protocol ControlHandler: Sendable {
    /// Starts guiding to `coordinate`.
    ///
    /// - Returns: Success, or the error to send the client (e.g. `internal` when the
    ///   destination could not be saved).
    func go(_ coordinate: Coordinate, name: String?) async -> Result<Void, ControlError>

    /// Stops guiding.
    ///
    /// - Returns: Success, or the error to send the client.
    func clear() async -> Result<Void, ControlError>

    /// The current state, for a `STATUS` reply.
    func status() async -> StatusReport

    /// The recent destinations, most recent first, for a `RECENT` reply.
    func recent() async -> [SavedDestination]
}
