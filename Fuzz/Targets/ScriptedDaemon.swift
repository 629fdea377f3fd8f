import ControlProtocol
import Synchronization
import WebCompanion

/// The daemon as the companion's fuzz target meets it: a reply of the right kind for every
/// request (a STATUS with a fix, one search result, two trail pages), and the requests kept.
final class ScriptedDaemon: DaemonLink {
    private let sentRequests = Mutex<[ControlRequest]>([])

    /// The requests sent since the last call: one input's (a handful), so none is lost.
    func takeSent() -> [ControlRequest] { sentRequests.withLock { sent in defer { sent.removeAll() }; return sent } }

    func exchange(_ request: ControlRequest) throws(DaemonUnreachable) -> ControlReply {
        sentRequests.withLock { $0.append(request) }
        let line: String
        switch request {
        case .status:
            line = #"{"class":"STATUS","state":"guiding","bearing":44,"distance":1234.5,"fix":{"lat":48.85,"lon":2.29,"mode":3}}"#
        case .search:
            line = #"{"class":"SEARCH","map":"m","results":[{"bearing_deg":1,"distance_m":2,"kind":"bakery","lat":48.86,"lon":2.3}]}"#
        case .track(.export(_, _, nil)):
            line = #"{"class":"TRACK","next":"c1","points":[{"lat":48.1,"lon":2.1,"seg":true,"t":1796307322}]}"#
        case .track(.export):
            line = #"{"class":"TRACK","next":null,"points":[{"lat":48.2,"lon":2.2,"seg":false,"t":1796307382}]}"#
        case .route:
            line = #"{"class":"ROUTE","route":null}"#
        case .goPlace:
            line = #"{"class":"ERROR","code":"not-found","message":"no place of that name"}"#
        default:
            line = #"{"class":"OK"}"#
        }
        // Written here as the daemon writes them; a line that did not read would be this file's mistake.
        return try! ControlReply(line: Array(line.utf8), printable: true)
    }
}
