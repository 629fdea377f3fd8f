@preconcurrency import Glibc
import SystemSupport

/// The header deadline: a connection whose request headers are not all in within
/// ``HTTPServer/Limits/headerSeconds`` of its accept is shut down, however steadily it trickles
/// bytes. libmicrohttpd has only a quiet timeout, which a client sending a header line every few
/// seconds never meets; 40 such clients held every connection for minutes (issue 38).
///
/// The server arms a connection when it is accepted and disarms it when its headers are in or
/// when it is cleaned up; a thread of its own shuts down (`shutdown(2)`, not `close`: the
/// library still owns the descriptor) every armed connection past its deadline, and the
/// library then sees the peer gone and closes it. Arming, disarming and shutting down all hold
/// one lock, and the library cleans a connection up before it closes its socket, so no
/// descriptor is shut down after it was closed and perhaps reused.
final class HeaderDeadlines: @unchecked Sendable {
    // @unchecked: `armed` and `closed` are read and written with `condition`'s mutex held.
    private let condition = MonotonicCondition()
    private var armed: [UnsafeMutableRawPointer: (socket: Int32, deadline: timespec)] = [:]
    private var closed = false
    private let seconds: Int
    private var expired = 0

    /// Deadlines `seconds` after each accept.
    init(seconds: Int) { self.seconds = seconds }

    /// Starts the thread that shuts connections down.
    func start() throws(Errno) {
        try BlockingThread.start(name: "header-deadline") { [self] in run() }
    }

    /// Ends the thread.
    func close() {
        condition.locked { closed = true }
        condition.broadcast()
    }

    /// Connections shut down so far.
    var expiredCount: Int { condition.locked { expired } }

    /// A connection accepted just now, on `socket`.
    func arm(_ connection: UnsafeMutableRawPointer, socket: Int32) {
        let deadline = MonotonicCondition.deadline(after: .seconds(seconds))
        let first = condition.locked { () -> Bool in
            armed[connection] = (socket, deadline)
            return armed.count == 1
        }
        if first { condition.broadcast() }
    }

    /// A connection whose headers are in, or which is gone.
    func disarm(_ connection: UnsafeMutableRawPointer) {
        condition.locked { _ = armed.removeValue(forKey: connection) }
    }

    private func run() {
        condition.locked {
            while !closed {
                guard let earliest = armed.values.map(\.deadline).min(by: Self.isEarlier) else {
                    condition.wait()
                    continue
                }
                if condition.wait(until: earliest) { continue }  // woken: look again
                let now = MonotonicCondition.deadline(after: .zero)
                for (connection, entry) in armed where !Self.isEarlier(now, entry.deadline) {
                    _ = SocketCall.shutdown(entry.socket)
                    armed.removeValue(forKey: connection)
                    expired += 1
                }
            }
        }
    }

    private static func isEarlier(_ a: timespec, _ b: timespec) -> Bool { (a.tv_sec, a.tv_nsec) < (b.tv_sec, b.tv_nsec) }
}
