import ControlProtocol
import Synchronization
import WebCompanion

/// The daemon as the router sees it, scripted: the requests it was sent, and a reply line per
/// kind of request (a test's expectations are the lines written here, not the daemon's code).
final class FakeDaemonLink: DaemonLink {
    private let state = Mutex<(sent: [ControlRequest], replies: [String: [String]])>(([], [:]))
    let reachable: Bool

    init(reachable: Bool = true, replies: [String: [String]] = [:]) {
        self.reachable = reachable
        state.withLock { $0.replies = replies }
    }

    var sent: [ControlRequest] { state.withLock { $0.sent } }

    func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> ControlReply {
        guard reachable else { throw DaemonUnreachable("the daemon does not answer: connection refused") }
        let command = request.commandName
        let line = state.withLock { state in
            state.sent.append(request)
            guard var queue = state.replies[String(command)], !queue.isEmpty else { return #"{"class":"OK"}"# }
            let line = queue.count > 1 ? queue.removeFirst() : queue[0]
            state.replies[String(command)] = queue
            return line
        }
        // Read as ControlConnection reads the daemon's lines.
        guard let reply = try? ControlReply(line: Array(line.utf8), printable: true) else {
            throw DaemonUnreachable("the scripted line does not read: \(line)")
        }
        return reply
    }
}
