import ControlProtocol
import DaemonClient
import Geodesy

/// A conversation with the daemon: connect, read and check the greeting, then one reply per
/// request.
struct DaemonSession {
    /// How long to wait for the greeting and for each reply, seconds: the daemon answers in
    /// milliseconds, so a longer silence means it is stuck and the client should not hang.
    static let replyTimeoutSeconds = 5.0

    /// The connection, for commands such as `watch` that go on reading.
    let connection: ControlConnection
    /// What the daemon said on connect.
    let greeting: VersionGreeting

    /// Connects and reads the greeting; warns on standard error when the daemon speaks another
    /// protocol version (the conversation still goes on: unknown fields are ignored both ways).
    /// - Parameter path: The control socket.
    /// - Throws: ``DaemonFailure``: no connection, an `ERROR` instead of a greeting (e.g. too
    ///   many clients), or something else than a greeting.
    init(path: String) throws(DaemonFailure) {
        do throws(ConnectionError) {
            connection = try ControlConnection(path: path, receiveTimeoutSeconds: Self.replyTimeoutSeconds)
        } catch {
            throw .connection(error)
        }
        let first = try Self.receive(from: connection)
        switch first.reply {
        case .version(let greeting):
            self.greeting = greeting
        case .error(let error):
            throw .refused(error)
        case let other:
            throw .unexpectedReply(request: "the connection", reply: other.messageClass.rawValue)
        }
        if let warning = Self.versionWarning(for: greeting) {
            Console.error(warning)
        }
    }

    /// Sends `request` and waits for its reply.
    /// - Returns: The reply and its raw line; never an `ERROR`.
    /// - Throws: ``DaemonFailure``: the connection failed, or ``DaemonFailure/refused(_:)``
    ///   with the daemon's `ERROR`.
    func send(_ request: ControlRequest) throws(DaemonFailure) -> ControlConnection.Received {
        do throws(ConnectionError) {
            try connection.send(request)
        } catch {
            throw .connection(error)
        }
        let received = try Self.receive(from: connection)
        if case .error(let error) = received.reply { throw .refused(error) }
        return received
    }

    /// The warning for a daemon of another protocol version, or nil when they match.
    static func versionWarning(for greeting: VersionGreeting) -> String? {
        guard greeting.protocolVersion != VersionGreeting.protocolVersion else { return nil }
        let release = greeting.release.isEmpty ? "" : " (release \(greeting.release))"
        return "warning: waypointd\(release) speaks control protocol \(greeting.protocolVersion); "
            + "this waypointctl (release \(Release.version)) speaks \(VersionGreeting.protocolVersion). "
            + "Some replies may be misread; install matching versions."
    }

    private static func receive(from connection: ControlConnection) throws(DaemonFailure) -> ControlConnection.Received
    {
        do throws(ConnectionError) {
            return try connection.receive()
        } catch {
            throw .connection(error)
        }
    }
}

extension DaemonSession {
    /// Where the daemon's current fix puts the wearer, or nil without one (or when it answers
    /// something other than STATUS): what a short plus code is completed near, and what a
    /// destination that looks typed longitude first is judged against.
    func currentFix() throws(DaemonFailure) -> Coordinate? {
        guard case .status(let report) = try send(.status).reply, let latitude = report.fix?.latitude,
            let longitude = report.fix?.longitude
        else { return nil }
        return Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)
    }
}
