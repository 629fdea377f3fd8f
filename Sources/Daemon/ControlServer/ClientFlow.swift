import Synchronization
import SystemSupport

/// One control client's flow control, shared by its reader thread and the task that answers it:
/// how many of its requests may wait for an answer at once, and when it has been quiet too long.
///
/// The reader thread takes a permit (``admit()``) before it passes on each request and waits
/// when none is left, so a client that pipelines requests faster than they are answered is
/// simply not read: its requests wait in the kernel's socket buffer, then its own writes block.
/// Nothing in the daemon grows with the number of requests sent.
final class ClientFlow: Sendable {
    /// What the reader thread should do before its next receive.
    enum Wait: Equatable {
        /// Wait for input at most this long, then ask again; nil: for as long as it takes.
        case input(Duration?)
        /// The client sent no complete request within the idle timeout: close it.
        case idleTimeoutPassed
    }

    private struct State {
        var outstanding = 0
        var isWatching = false
        /// When the client connected or was last answered.
        var lastActivity: ContinuousClock.Instant
    }

    /// How long a client may go without sending a complete request, after connecting or its
    /// last reply, unless it is watching or waiting for an answer.
    let idleTimeout: Duration
    private let permits: ThreadSemaphore
    private let state: Mutex<State>

    /// The flow of a client that connected just now.
    ///
    /// - Parameters:
    ///   - outstandingRequests: Requests read but not yet answered, at most; at least 1.
    ///   - idleTimeout: See ``idleTimeout``.
    init(outstandingRequests: Int, idleTimeout: Duration) {
        precondition(outstandingRequests > 0, "a client must be allowed one request")
        permits = ThreadSemaphore(permits: outstandingRequests)
        self.idleTimeout = idleTimeout
        state = Mutex(State(lastActivity: .now))
    }

    /// Reader thread: waits until one more request may be passed on.
    ///
    /// - Returns: false once ``close()`` was called: pass nothing more on.
    func admit() -> Bool {
        guard permits.acquire() else { return false }
        state.withLock { $0.outstanding += 1 }
        return true
    }

    /// The answering task: a request passed on by ``admit()`` was answered (or skipped).
    func answered() {
        state.withLock { state in
            state.outstanding -= 1
            state.lastActivity = .now
        }
        permits.release()
    }

    /// The answering task: the client started or stopped watching.
    func setWatching(_ isWatching: Bool) { state.withLock { $0.isWatching = isWatching } }

    /// Reader thread: how long to wait for input now.
    var wait: Wait {
        state.withLock { state in
            if state.isWatching { return .input(nil) }
            // Waiting for an answer is not idling; look again a timeout later.
            if state.outstanding > 0 { return .input(idleTimeout) }
            let left = ContinuousClock.now.duration(to: state.lastActivity + idleTimeout)
            return left > .zero ? .input(left) : .idleTimeoutPassed
        }
    }

    /// Ends the flow: a reader waiting in ``admit()`` (or about to) gets false.
    func close() { permits.close() }
}
