import ControlProtocol
import Geodesy
import Synchronization
import SystemSupport

/// Serves the control protocol on a listening UNIX socket: greets each client, reads its
/// request lines, asks a ``ControlHandler`` and writes the reply lines.
///
/// Threads: one ``BlockingThread`` waits in `accept`, and each client has one thread of its own,
/// which owns its descriptor from the accept to the close: it reads the requests, answers them
/// one at a time and in order, sends a watching client its `STATUS` lines, and closes the
/// descriptor itself when the client leaves or is dropped. No task, no second owner: a number
/// is never closed while another thread still uses it. Writes never block (see
/// ``UnixSocketConnection/send(_:)``): a client that stops reading is dropped once
/// ``Limits/outputBytes`` of its output wait unsent.
///
/// Backpressure: a client's requests are read a chunk at a time and answered before the next
/// read, and nothing more is read while replies wait unsent for it (it is dropped if they wait
/// ``Limits/idleTimeout``), so a client that pipelines faster than it reads only fills its own
/// socket's buffers. A client quiet for ``Limits/idleTimeout`` (no complete request since it
/// connected or was last answered, and not watching) is sent a `timeout` error and closed, so
/// silent connections cannot hoard slots.
///
/// Lifecycle: bind the listener first (so `READY=1` can follow), create the server, then
/// `try await server.run()` in the daemon's task group. ``stop()`` (or cancelling the task)
/// closes the listener and shuts every client down, and ``run()`` returns once every client's
/// thread has closed its descriptor.
public final class ControlServer: Sendable {
    /// Bounds on what clients may cost the daemon.
    public struct Limits: Sendable, Hashable {
        /// Clients served at once; one more is sent an `internal` error and disconnected.
        public var clients = 32
        /// Output waiting for a slow client, in bytes, before it is dropped: two of the
        /// longest replies.
        public var outputBytes = 2 * ControlReply.maximumLineLength
        /// The longest request line, in bytes.
        public var lineBytes = LineFramer.defaultMaximumLineLength
        /// How long a client may be quiet (see ``ControlServer``) before it is closed.
        public var idleTimeout = Duration.seconds(10)

        /// The protocol's defaults.
        public init() {}
    }

    /// How many bytes one read takes: the requests of one read are answered before the next.
    static let readBytes = 4096

    private struct Registry {
        var isStopped = false
        var isAccepting = true
        var nextID = 0
        /// The clients' connections, for ``stop()`` to shut down; each is closed by its thread.
        var clients: [Int: UnixSocketConnection] = [:]
        /// ``run()`` waiting for the accept thread and the last client to finish.
        var waiter: CheckedContinuation<Void, Never>?

        /// Takes the waiter once nothing is left to wait for.
        mutating func finishedWaiter() -> CheckedContinuation<Void, Never>? {
            guard !isAccepting, clients.isEmpty else { return nil }
            defer { waiter = nil }
            return waiter
        }
    }

    private let listener: UnixSocketListener
    private let handler: any ControlHandler
    private let limits: Limits
    private let logger: Logger?
    private let registry = Mutex(Registry())
    /// The error that ended the accept loop, if one did.
    private let acceptFailure = Mutex<UnixSocketError?>(nil)

    /// A server on a listener, which it then owns and closes when it stops.
    ///
    /// - Parameters:
    ///   - listener: A bound or adopted listening socket.
    ///   - handler: Carries out the requests.
    ///   - limits: Bounds on clients.
    ///   - logger: Where connection problems are reported; nil for silence.
    public init(listener: UnixSocketListener, handler: any ControlHandler, limits: Limits = Limits(), logger: Logger? = nil) {
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.logger = logger
    }

    /// Serves clients until ``stop()`` is called or the task is cancelled, then waits for every
    /// client's thread to be done.
    ///
    /// - Throws: ``UnixSocketError/acceptFailed(_:)`` when `accept` failed in a way that cannot
    ///   be waited out, or an `Errno` when no thread could be started.
    public func run() async throws {
        do {
            try BlockingThread.start(name: "control accept") { [self] in acceptLoop() }
        } catch {
            listener.close()
            throw error
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = registry.withLock { registry -> CheckedContinuation<Void, Never>? in
                    registry.waiter = waiter
                    return registry.finishedWaiter()
                }
                ready?.resume()
            }
        } onCancel: {
            stop()
        }
        if let failure = acceptFailure.withLock({ $0 }) { throw failure }
    }

    /// Stops accepting and shuts every client down; ``run()`` then returns. Safe from any
    /// thread or task, before or during ``run()``, any number of times.
    public func stop() {
        let clients = registry.withLock { registry in
            registry.isStopped = true
            return Array(registry.clients.values)
        }
        listener.stop()
        for client in clients { client.shutdown() }
    }

    /// The accept thread: admits clients, each to a thread of its own, until the listener is
    /// stopped, then closes it.
    private func acceptLoop() {
        defer {
            listener.close()
            registry.withLock { registry in
                registry.isAccepting = false
                return registry.finishedWaiter()
            }?.resume()
        }
        while true {
            let connection: UnixSocketConnection
            do {
                guard let next = try listener.accept(outputLimit: limits.outputBytes) else { return }
                connection = next
            } catch {
                if case .acceptFailed(let errno) = error,
                    [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .outOfMemory].contains(errno)
                {
                    logger?.warning("control socket: \(error); pausing")
                    ThreadSleep.sleep(for: .milliseconds(100))
                    continue
                }
                logger?.error("control socket: \(error); no longer accepting clients")
                acceptFailure.withLock { $0 = error }
                return
            }
            let id = registry.withLock { registry -> Int? in
                guard !registry.isStopped, registry.clients.count < limits.clients else { return nil }
                registry.nextID += 1
                registry.clients[registry.nextID] = connection
                return registry.nextID
            }
            guard let id else {
                let error = ControlError(.tooManyClients, "too many clients (at most \(limits.clients)); try again later")
                connection.send(ControlReply.error(error).line)
                connection.close()
                continue
            }
            do {
                try BlockingThread.start(name: "control client") { [self] in serve(connection, id: id) }
            } catch {
                logger?.error("control client \(id): cannot start its thread: \(error)")
                connection.close()
                registry.withLock { _ = $0.clients.removeValue(forKey: id) }
            }
        }
    }

    /// One client, on its own thread: greeting, then a reply to each request and the watch's
    /// lines, until it leaves or is dropped; then its descriptor is closed, here.
    private func serve(_ connection: UnixSocketConnection, id: Int) {
        defer {
            connection.close()
            registry.withLock { registry in
                registry.clients.removeValue(forKey: id)
                return registry.finishedWaiter()
            }?.resume()
        }
        var client = Client(connection: connection, id: id, server: self)
        client.serve()
    }

    /// Sends one line to a client.
    ///
    /// - Returns: Whether the client is still connected.
    fileprivate func send(_ reply: ControlReply, to connection: UnixSocketConnection, id: Int) -> Bool {
        switch connection.send(reply.line) {
        case .sent, .queued:
            return true
        case .droppedOverLimit:
            logger?.notice("control client \(id): not reading its replies; dropped")
            return false
        case .droppedFailed(let error):
            logger?.debug("control client \(id): \(error); dropped")
            return false
        case .closed:
            return false
        }
    }

    /// What one client's thread keeps: its framer, its watch, when it was last answered.
    private struct Client {
        let connection: UnixSocketConnection
        let id: Int
        let server: ControlServer
        let clock = ContinuousClock()
        var framer: LineFramer
        /// The watch's interval and the time of its next line, while watching.
        var watch: (interval: Duration, next: ContinuousClock.Instant)?
        /// When the client connected or was last answered: the idle timeout counts from here.
        var lastAnswered: ContinuousClock.Instant
        /// Since when replies wait unsent, while some do.
        var unsentSince: ContinuousClock.Instant?

        init(connection: UnixSocketConnection, id: Int, server: ControlServer) {
            self.connection = connection
            self.id = id
            self.server = server
            framer = LineFramer(maximumLineLength: server.limits.lineBytes)
            lastAnswered = clock.now
        }

        var limits: Limits { server.limits }

        /// The loop: a watch line when one is due; while replies wait unsent, nothing read (the
        /// client must take them, within the idle timeout); else the next requests, or the
        /// idle timeout. Returns when the client is gone or dropped.
        mutating func serve() {
            guard server.send(.version(VersionGreeting()), to: connection, id: id) else { return }
            var buffer = [UInt8](repeating: 0, count: ControlServer.readBytes)
            while true {
                let now = clock.now
                if let watch, now >= watch.next {
                    guard server.send(server.handler.handle(.status), to: connection, id: id) else { return }
                    // Behind schedule (the process was stopped, the machine suspended): the latest
                    // state once, then on from now, rather than every line missed at once.
                    let next = watch.next.advanced(by: watch.interval)
                    self.watch = (watch.interval, next < now ? now.advanced(by: watch.interval) : next)
                    continue
                }
                if connection.hasQueuedOutput {
                    guard repliesTaken(now: now) else { return }
                    continue
                }
                unsentSince = nil
                let deadline = watch?.next ?? lastAnswered.advanced(by: limits.idleTimeout)
                if watch == nil, now >= deadline {
                    let seconds = DecimalFormat.fixed(limits.idleTimeout.seconds, fractionDigits: 0)
                    connection.send(ControlReply.error(ControlError(.timeout, "no request for \(seconds) s; closing the connection")).line)
                    server.logger?.debug("control client \(id): idle; closed")
                    return
                }
                let count: Int
                do {
                    guard try connection.waitForInput(timeout: now.duration(to: deadline)) else { continue }
                    count = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try connection.receive(into: raw) }
                } catch {
                    return  // ECONNRESET and the like: the client is gone either way.
                }
                if count == 0 {
                    // The client sent all it will (a half-close, as `echo … | socat` does): every
                    // request it sent is answered; what waits unsent is given the idle timeout.
                    // A partial line is discarded.
                    _ = connection.drain(timeout: limits.idleTimeout)
                    return
                }
                for frame in framer.append(buffer[..<count]) {
                    // One read can bring hundreds of requests: their replies wait for the client to
                    // take each one's before the next is answered.
                    guard !connection.hasQueuedOutput || repliesTaken(now: clock.now, blocking: true), answer(frame) else { return }
                }
            }
        }

        /// Waits, while replies wait unsent, for the client to take them: until the idle timeout
        /// since they started waiting (then the client is dropped), or the next watch line.
        /// - Parameter blocking: Wait out the whole idle timeout, watch or not.
        /// - Returns: false when the client is dropped or gone.
        mutating func repliesTaken(now: ContinuousClock.Instant, blocking: Bool = false) -> Bool {
            let since = unsentSince ?? now
            unsentSince = since
            let dropAt = since.advanced(by: limits.idleTimeout)
            let until = blocking ? dropAt : min(dropAt, watch?.next ?? dropAt)
            switch connection.drain(timeout: max(now.duration(to: until), .zero)) {
            case .sent:
                unsentSince = nil
                return true
            case .queued:
                guard clock.now < dropAt else {
                    server.logger?.notice("control client \(id): not reading its replies; dropped")
                    return false
                }
                return true
            case .droppedOverLimit, .droppedFailed, .closed:
                return false
            }
        }

        /// Answers one request (a `watch` here: it is this thread that sends its lines).
        /// - Returns: false when the client is gone.
        mutating func answer(_ frame: LineFramer.Frame) -> Bool {
            let reply: ControlReply
            switch frame {
            case .line(let bytes):
                if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
                do throws(ControlError) {
                    let request = try ControlRequest(line: bytes)
                    if case .watch(let enabled, let hertz) = request {
                        // The first line at once, after this OK; none after a disabling OK.
                        watch = enabled ? (.seconds(1 / hertz), clock.now) : nil
                        reply = .ok
                    } else {
                        reply = server.handler.handle(request)
                    }
                } catch {
                    reply = .error(error)
                }
            case .lineTooLong:
                reply = .error(ControlError(.lineTooLong, "a request line may be at most \(limits.lineBytes) bytes"))
            }
            lastAnswered = clock.now
            return server.send(reply, to: connection, id: id)
        }
    }
}
