import ControlProtocol
import DaemonClient
import Synchronization

/// How the companion reaches the daemon: one request, one reply. The real one keeps a
/// connection to the control socket; tests give a fake.
public protocol DaemonLink: Sendable {
    /// Sends `request` and returns the daemon's reply, read once (its strings escaped for
    /// printing, ``ControlConnection/Received``), which may be an `ERROR`.
    func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> ControlReply
}

/// The daemon did not answer: not running, the socket refused, a timeout.
public struct DaemonUnreachable: Error, Sendable, CustomStringConvertible {
    /// The reason, for the page.
    public let description: String
    /// A reason from its words.
    public init(_ description: String) { self.description = description }
}

/// The daemon on its control socket, through one connection kept open (its greeting read once)
/// and used by one request at a time: the daemon answers in milliseconds, and the pages' live
/// state comes through ``EventHub``'s own connection, not this one.
///
/// The daemon closes a connection quiet for 10 s, first sending a `timeout` error; a daemon
/// restart closes it too. Either shows as something to read before a request is sent: the
/// connection is then opened again. A request whose sending fails on a connection that looked
/// open is sent once more on a new one (the daemon did not get it); one whose reply does not
/// come is not (the daemon may have carried it out), and the connection is dropped.
public final class SocketDaemonLink: DaemonLink {
    /// The control socket.
    public let path: String
    /// How long to wait for the greeting and the reply, seconds: the daemon answers in
    /// milliseconds; a GPX route of 1000 waypoints is the longest line it reads.
    public static let replyTimeoutSeconds = 5.0

    /// The connection, past its greeting, while it is open.
    private let connection = Mutex<ControlConnection?>(nil)

    /// A link to the socket at `path`; nothing is opened until the first request.
    public init(path: String) { self.path = path }

    public func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> ControlReply {
        try connection.withLock { (kept: inout ControlConnection?) throws(DaemonUnreachable) -> ControlReply in
            do throws(ConnectionError) {
                if let open = kept, open.hasUnreadInput { kept = nil }
                let reused = kept != nil
                var current: ControlConnection
                if let kept { current = kept } else { current = try open() }
                kept = current
                do throws(ConnectionError) {
                    try current.send(request)
                } catch {
                    guard reused else { throw error }
                    current = try open()
                    kept = current
                    try current.send(request)
                }
                do throws(ConnectionError) {
                    return try current.receive().reply
                } catch {
                    kept = nil
                    throw error
                }
            } catch {
                kept = nil
                throw DaemonUnreachable("the daemon does not answer: \(error)")
            }
        }
    }

    /// A connection past the daemon's greeting (or its refusal, thrown as such).
    public func open() throws(ConnectionError) -> ControlConnection {
        let connection = try ControlConnection(path: path, receiveTimeoutSeconds: Self.replyTimeoutSeconds)
        _ = try connection.receive()
        return connection
    }
}
