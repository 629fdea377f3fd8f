import ControlProtocol
import DaemonClient

/// How the companion reaches the daemon: one request, one reply line. The real one opens a
/// connection to the control socket per request; tests give a fake.
public protocol DaemonLink: Sendable {
    /// Sends `request` and returns the daemon's reply line (JSON, without its newline), which
    /// may be an `ERROR`.
    func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> [UInt8]
}

/// The daemon did not answer: not running, the socket refused, a timeout.
public struct DaemonUnreachable: Error, Sendable, CustomStringConvertible {
    /// The reason, for the page.
    public let description: String
    /// A reason from its words.
    public init(_ description: String) { self.description = description }
}

/// The daemon on its control socket: a connection per request, so that no request waits
/// behind another's and a daemon restart costs nothing to recover from.
public struct SocketDaemonLink: DaemonLink {
    /// The control socket.
    public let path: String
    /// How long to wait for the greeting and the reply, seconds: the daemon answers in
    /// milliseconds; a GPX route of 1000 waypoints is the longest line it reads.
    public static let replyTimeoutSeconds = 5.0

    /// A link to the socket at `path`.
    public init(path: String) { self.path = path }

    public func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> [UInt8] {
        do throws(ConnectionError) {
            let connection = try open()
            try connection.send(request)
            return try connection.receive().line
        } catch {
            throw DaemonUnreachable("the daemon does not answer: \(error)")
        }
    }

    /// A connection past the daemon's greeting (or its refusal, thrown as such).
    public func open() throws(ConnectionError) -> ControlConnection {
        let connection = try ControlConnection(path: path, receiveTimeoutSeconds: Self.replyTimeoutSeconds)
        _ = try connection.receive()
        return connection
    }
}
