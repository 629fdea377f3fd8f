import ControlProtocol
import SystemSupport
import TextFormats

/// Why talking to the daemon failed, below the level of its answers. Every case names the
/// socket path, because "which daemon?" is the first question when it fails.
public enum ConnectionError: Error, Hashable, CustomStringConvertible {
    /// The path does not fit a UNIX socket address.
    case pathTooLong(path: String)
    /// `socket(2)` failed (out of descriptors or memory).
    case socketFailed(Errno)
    /// `connect(2)` failed: most often no daemon (`ENOENT`, `ECONNREFUSED`) or no permission.
    case connectFailed(path: String, Errno)
    /// The path names a directory or a regular file, not a socket: a mistyped `--socket`.
    case notASocket(path: String, FileSystem.Kind)
    /// Setting the receive timeout failed.
    case setupFailed(path: String, Errno)
    /// Sending a request failed, e.g. `EPIPE` when the daemon went away.
    case sendFailed(path: String, Errno)
    /// Receiving failed.
    case receiveFailed(path: String, Errno)
    /// Nothing arrived within the timeout.
    case timedOut(path: String, seconds: Double)
    /// The daemon closed the connection.
    case closed(path: String)
    /// The daemon sent a line longer than the protocol allows.
    case lineTooLong(path: String)
    /// The daemon sent a line that is not a reply this client can read.
    case badReply(path: String, ReplyDecodingError)

    public var description: String {
        switch self {
        case .pathTooLong(let path):
            "socket path \(path) is longer than \(UnixSocketConnection.maximumPathLength) bytes"
        case .socketFailed(let error):
            "cannot create a socket: \(error.message)"
        case .connectFailed(let path, let error):
            "cannot connect to \(path): \(error.message) — \(Self.hint(for: error))"
        case .notASocket(let path, let kind):
            "\(path) is \(kind == .directory ? "a directory" : "a regular file"), not waypointd's socket "
                + "(the daemon's is /run/waypointd/control.sock unless its config says otherwise)"
        case .setupFailed(let path, let error):
            "cannot set up the connection to \(path): \(error.message)"
        case .sendFailed(let path, let error):
            "cannot send to waypointd on \(path): \(error.message)"
        case .receiveFailed(let path, let error):
            "cannot read from waypointd on \(path): \(error.message)"
        case .timedOut(let path, let seconds):
            "no reply from waypointd on \(path) within \(Self.secondsText(seconds)) s"
        case .closed(let path):
            "waypointd closed the connection on \(path)"
        case .lineTooLong(let path):
            "waypointd on \(path) sent a line longer than \(ControlReply.maximumLineLength) bytes"
        case .badReply(let path, let error):
            "unreadable reply from waypointd on \(path): \(error)"
        }
    }

    private static func hint(for error: Errno) -> String {
        switch error {
        case .permissionDenied: "is this user in the waypoint group?"
        default: "is waypointd running?"
        }
    }

    private static func secondsText(_ seconds: Double) -> String { JSONWriter.number(seconds) }
}
