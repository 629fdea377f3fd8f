@preconcurrency import Glibc
import Synchronization

/// One connected UNIX stream socket: a client the daemon accepted, or the daemon as a client
/// sees it.
///
/// Reading blocks (one reader thread per connection); writing never does: ``send(_:)`` uses
/// `MSG_DONTWAIT`, keeps what the kernel would not take, and drops the connection once that
/// backlog would pass ``outputLimit``, so a peer that stops reading cannot stall the daemon.
///
/// Ownership: the thread that calls ``receive(into:)`` calls ``close()`` after its last
/// receive; any thread may call ``send(_:)`` and ``shutdown()``, before or after that.
public final class UnixSocketConnection: Sendable, CustomStringConvertible {
    /// The default bound on output the kernel has not yet taken, in bytes.
    public static let defaultOutputLimit = 64 * 1024

    /// What became of bytes given to ``send(_:)``.
    public enum SendOutcome: Sendable, Hashable {
        /// All of it, and everything queued before, is with the kernel.
        case sent
        /// Some is queued here, waiting for the peer to read: this many bytes in all.
        case queued(bytes: Int)
        /// The connection was dropped now: the backlog would have passed the limit.
        case droppedOverLimit
        /// The connection was dropped now because sending failed, e.g. `EPIPE`.
        case droppedFailed(Errno)
        /// The connection was already shut down or closed; nothing was sent.
        case closed
    }

    private struct State {
        var pending: [UInt8] = []
        var isShutDown = false
        var isClosed = false
    }

    /// The descriptor; valid until ``close()``.
    let descriptor: Int32
    /// The most output, in bytes, that may wait here for a slow peer before it is dropped.
    public let outputLimit: Int
    private let state = Mutex(State())

    /// Wraps a connected socket descriptor, which this object then owns.
    ///
    /// - Parameters:
    ///   - descriptor: A connected `SOCK_STREAM` socket.
    ///   - outputLimit: See ``outputLimit``.
    init(descriptor: Int32, outputLimit: Int = defaultOutputLimit) {
        self.descriptor = descriptor
        self.outputLimit = outputLimit
    }

    public var description: String { "UNIX connection fd \(descriptor)" }

    /// Connects to a listening socket, as a client does.
    ///
    /// - Parameters:
    ///   - path: The socket file.
    ///   - outputLimit: See ``outputLimit``.
    /// - Returns: The connection.
    /// - Throws: ``UnixSocketError/connectFailed(path:_:)``, e.g. `ENOENT` or `ECONNREFUSED`.
    public static func connect(
        to path: String, outputLimit: Int = defaultOutputLimit
    ) throws(UnixSocketError) -> UnixSocketConnection {
        guard SocketCall.withAddress(path, { _, _ in () }) != nil else { throw .invalidPath(path) }
        let descriptor: Int32
        switch SocketCall.makeStreamSocket() {
        case .success(let value): descriptor = value
        case .failure(let error): throw .createFailed(error)
        }
        if case .failure(let error) = SocketCall.connect(descriptor, path: path) {
            try? FileDescriptor(rawValue: descriptor).close()
            throw .connectFailed(path: path, error)
        }
        return UnixSocketConnection(descriptor: descriptor, outputLimit: outputLimit)
    }

    /// The longest socket path ``connect(to:outputLimit:)`` accepts, in bytes: what a
    /// `sockaddr_un` holds, less the terminating NUL (107 on Linux).
    public static let maximumPathLength = SocketCall.maximumPathLength

    /// Bounds how long ``receive(into:)`` waits: once that much time passes with nothing to
    /// read, it throws ``Errno/wouldBlock``. Corresponds to `setsockopt(SO_RCVTIMEO)`.
    ///
    /// A client that must not hang on a stuck peer sets this; the daemon's reader threads do not.
    ///
    /// - Parameter seconds: The longest wait, to the microsecond; nil waits for ever.
    /// - Throws: The `Errno` that `setsockopt` failed with, e.g. `EDOM` for a negative time.
    public func setReceiveTimeout(seconds: Double?) throws(Errno) {
        try SocketCall.setReceiveTimeout(descriptor, seconds: seconds).get()
    }

    /// Waits for bytes from the peer. Blocks the calling thread; EINTR is retried.
    ///
    /// - Parameter buffer: Where the bytes go.
    /// - Returns: How many arrived; 0 when the peer closed or ``shutdown()`` was called.
    /// - Throws: The `Errno` that `recv` failed with, e.g. `ECONNRESET`, or ``Errno/wouldBlock``
    ///   when a timeout set with ``setReceiveTimeout(seconds:)`` passed.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try SocketCall.receive(descriptor, into: buffer).get()
    }

    /// Waits until there are bytes to receive (or the peer left, or the connection was shut
    /// down), for at most `timeout`. Corresponds to `poll(POLLIN)`.
    ///
    /// - Parameter timeout: The longest wait; nil waits for ever.
    /// - Returns: false when the time passed with nothing to read.
    /// - Throws: The `Errno` that `poll` failed with, e.g. `ENOMEM`.
    public func waitForInput(timeout: Duration?) throws(Errno) -> Bool {
        try SocketCall.wait(descriptor, for: Int16(POLLIN), milliseconds: timeout?.pollMilliseconds ?? -1).get()
    }

    /// Whether output waits here for the peer to read.
    public var hasQueuedOutput: Bool { state.withLock { !$0.pending.isEmpty } }

    /// Waits for the peer to take what is queued, sending it as room appears, for at most
    /// `timeout` in all. Corresponds to `poll(POLLOUT)` and the sends of ``flush()``.
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: `.sent` once nothing is queued; `.queued` when the time passed first; a drop or
    ///   `.closed` as ``send(_:)`` reports them.
    public func drain(timeout: Duration) -> SendOutcome {
        let deadline = ContinuousClock.now + timeout
        while true {
            let outcome = flush()
            guard case .queued = outcome else { return outcome }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return outcome }
            if case .failure = SocketCall.wait(descriptor, for: Int16(POLLOUT), milliseconds: left.pollMilliseconds) {
                return outcome
            }
        }
    }

    /// Sends bytes without blocking, after anything still queued from earlier calls.
    ///
    /// - Parameter bytes: The bytes, e.g. one reply line.
    /// - Returns: What became of them; after a drop the connection is shut down.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> SendOutcome {
        let (outcome, drop) = state.withLock { state -> (SendOutcome, Bool) in
            guard !state.isShutDown, !state.isClosed else { return (.closed, false) }
            state.pending += bytes
            while !state.pending.isEmpty {
                let result = state.pending.withUnsafeBytes { SocketCall.sendWithoutBlocking(descriptor, $0) }
                switch result {
                case .success(let count):
                    state.pending.removeFirst(count)
                case .failure(let error) where error == .wouldBlock:
                    if state.pending.count > outputLimit {
                        state.pending = []
                        return (.droppedOverLimit, true)
                    }
                    return (.queued(bytes: state.pending.count), false)
                case .failure(let error):
                    state.pending = []
                    return (.droppedFailed(error), true)
                }
            }
            return (.sent, false)
        }
        if drop { shutdown() }
        return outcome
    }

    /// Tries again to send what is queued; see ``send(_:)``.
    @discardableResult
    public func flush() -> SendOutcome { send([]) }

    /// Ends the connection in both directions: a blocked ``receive(into:)`` returns 0, queued
    /// output is discarded, and later sends do nothing. Any thread, any number of times.
    public func shutdown() {
        state.withLock { state in
            guard !state.isShutDown, !state.isClosed else { return }
            state.isShutDown = true
            state.pending = []
            // ENOTCONN (the peer left first) changes nothing: the socket is finished either way.
            _ = SocketCall.shutdown(descriptor)
        }
    }

    /// Closes the descriptor. Only the receiving thread calls this, after its last receive;
    /// later calls, and sends from other threads, then do nothing.
    public func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            state.pending = []
            try? FileDescriptor(rawValue: descriptor).close()
        }
    }
}
