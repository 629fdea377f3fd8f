import CommandLineSupport
import ControlProtocol
import DaemonClient

/// Why a daemon command did not succeed: the connection failed, or the daemon said no, or it
/// answered something the command did not ask for.
enum DaemonFailure: Error, CustomStringConvertible {
    /// Connecting, sending or receiving failed.
    case connection(ConnectionError)
    /// The daemon answered `ERROR`.
    case refused(ControlError)
    /// The daemon answered with a reply of another kind than the request calls for.
    /// - `request`: the command, e.g. `status`.
    /// - `reply`: the reply's class, e.g. `RECENT`.
    case unexpectedReply(request: String, reply: String)

    var description: String {
        switch self {
        case .connection(let error): "\(error)"
        case .refused(let error): "error from waypointd: \(error.code.rawValue): \(error.message)"
        case .unexpectedReply(let request, let reply): "waypointd answered \(reply) to \(request)"
        }
    }

    /// 69 when the daemon could not be used, 1 when it answered but the command failed.
    var exitStatus: ExitStatus {
        switch self {
        case .connection(let error): error.exitStatus
        case .refused, .unexpectedReply: .failure
        }
    }
}
