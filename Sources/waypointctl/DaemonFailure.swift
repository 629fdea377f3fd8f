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
    /// What the command was to send could not be read: a file missing (66) or not what it
    /// should be (65); the sentence names the file.
    case input(String, ExitStatus)

    var description: String {
        switch self {
        case .connection(let error): "\(error)"
        case .refused(let error): "error from waypointd: \(error.code.rawValue): \(error.message)"
        case .unexpectedReply(let request, let reply): "waypointd answered \(reply) to \(request)"
        case .input(let message, _): message
        }
    }

    /// 69 when the daemon could not be used, 1 when it answered but the command failed, 65 or
    /// 66 when its input could not be used.
    var exitStatus: ExitStatus {
        switch self {
        case .connection(let error): error.exitStatus
        case .refused, .unexpectedReply: .failure
        case .input(_, let status): status
        }
    }
}
