import CommandLineSupport
import DaemonClient

extension ConnectionError {
    /// How the program should end: an unreadable reply is a failed command (1); everything else
    /// means the daemon could not be used (69).
    var exitStatus: ExitStatus {
        switch self {
        case .badReply: .failure
        default: .unavailable
        }
    }
}
