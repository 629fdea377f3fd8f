import ControlProtocol
import DaemonClient

/// One request to a running daemon over its socket, for a command that must ask it rather than
/// act behind its back (`motor-off` while the daemon drives the motor).
enum DaemonRequest {
    /// Why the daemon did not do what was asked, in words.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How long to wait for the greeting and for the reply.
    static let timeoutSeconds = 2.0

    /// Connects, reads the greeting, sends `request` and waits for `OK`.
    static func send(_ request: ControlRequest, to path: String) -> Result<Void, Failure> {
        do throws(ConnectionError) {
            let connection = try ControlConnection(path: path, receiveTimeoutSeconds: timeoutSeconds)
            guard case .version = try connection.receive().reply else {
                return .failure(Failure(description: "\(path) did not greet as waypointd does"))
            }
            try connection.send(request)
            switch try connection.receive().reply {
            case .ok: return .success(())
            case .error(let error): return .failure(Failure(description: "waypointd refused: \(error.message)"))
            default: return .failure(Failure(description: "waypointd answered something other than OK"))
            }
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }
}
