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

    func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> [UInt8] {
        guard reachable else { throw DaemonUnreachable("the daemon does not answer: connection refused") }
        let command = request.commandName
        return state.withLock { state in
            state.sent.append(request)
            guard var queue = state.replies[String(command)], !queue.isEmpty else { return Array(#"{"class":"OK"}"#.utf8) }
            let line = queue.count > 1 ? queue.removeFirst() : queue[0]
            state.replies[String(command)] = queue
            return Array(line.utf8)
        }
    }
}
