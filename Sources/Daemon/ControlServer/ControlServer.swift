import ControlProtocol
import Geodesy
import Synchronization
import SystemSupport

/// Serves the control protocol on a listening UNIX socket: greets each client, reads its
/// request lines, asks a ``ControlHandler`` and writes the reply lines.
///
/// Threads: one ``BlockingThread`` waits in `accept`, and one per client waits in `recv`;
/// requests are handled in async child tasks of ``run()``, one per client, so a client's
/// replies come in the order of its requests. A client that `watch`es also has one task sending
/// its `STATUS` lines, cancelled (and awaited) when it stops watching or leaves. Writes never block (see
/// ``UnixSocketConnection/send(_:)``): a client that stops reading is dropped once
/// ``Limits/outputBytes`` of its output wait unsent.
///
/// Backpressure (``ClientFlow``): a client's reader thread passes on at most
/// ``Limits/outstandingRequests`` requests not yet answered, and reads nothing more while
/// replies wait unsent for it (dropping it if they wait ``Limits/idleTimeout``), so what a
/// client costs is bounded however many requests it pipelines. A client quiet for
/// ``Limits/idleTimeout`` (no complete request since it connected or was last answered, and not
/// watching) is sent a `timeout` error and closed, so silent connections cannot hoard slots.
///
/// Lifecycle: bind the listener first (so `READY=1` can follow), create the server, then
/// `try await server.run()` in the daemon's task group. ``stop()`` (or cancelling the task)
/// closes the listener and disconnects every client, and ``run()`` returns once they are gone.
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
        /// Requests read from one client and not yet answered, at most.
        public var outstandingRequests = 8
        /// How long a client may be quiet (see ``ControlServer``) before it is closed.
        public var idleTimeout = Duration.seconds(10)

        /// The protocol's defaults.
        public init() {}
    }

    private struct Registry {
        var isStopped = false
        var nextID = 0
        var clients: [Int: UnixSocketConnection] = [:]
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
    /// client to be disconnected.
    ///
    /// - Throws: ``UnixSocketError/acceptFailed(_:)`` when `accept` failed in a way that cannot
    ///   be waited out, or an `Errno` when no thread could be started.
    public func run() async throws {
        let (accepted, continuation) = AsyncStream.makeStream(of: (Int, UnixSocketConnection).self)
        do {
            try BlockingThread.start(name: "control accept") { [self] in acceptLoop(continuation) }
        } catch {
            listener.close()
            throw error
        }
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for await (id, connection) in accepted {
                    group.addTask { await self.serve(connection, id: id) }
                }
            }
        } onCancel: {
            stop()
        }
        if let failure = acceptFailure.withLock({ $0 }) { throw failure }
    }

    /// Stops accepting and disconnects every client; ``run()`` then returns. Safe from any
    /// thread or task, before or during ``run()``, any number of times.
    public func stop() {
        let clients = registry.withLock { registry in
            registry.isStopped = true
            return Array(registry.clients.values)
        }
        listener.stop()
        for client in clients { client.shutdown() }
    }

    /// The accept thread: admits clients until the listener is stopped, then closes it.
    private func acceptLoop(_ continuation: AsyncStream<(Int, UnixSocketConnection)>.Continuation) {
        defer {
            listener.close()
            continuation.finish()
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
            continuation.yield((id, connection))
        }
    }

    /// One client: greeting, then a reply to each request until it leaves or is dropped.
    private func serve(_ connection: UnixSocketConnection, id: Int) async {
        defer {
            connection.shutdown()
            _ = registry.withLock { $0.clients.removeValue(forKey: id) }
        }
        connection.send(ControlReply.version(VersionGreeting()).line)
        let flow = ClientFlow(outstandingRequests: limits.outstandingRequests, idleTimeout: limits.idleTimeout)
        let (frames, continuation) = AsyncStream.makeStream(of: LineFramer.Frame.self)
        let (readerDone, done) = AsyncStream.makeStream(of: Never.self)
        do {
            try BlockingThread.start(name: "control client") { [limits, logger] in
                Self.readLoop(
                    connection, id: id, flow: flow, maximumLineLength: limits.lineBytes, logger: logger,
                    into: continuation, done: done)
            }
        } catch {
            logger?.error("control client \(id): cannot start its reader thread: \(error)")
            connection.close()
            return
        }
        // Runs until the reader thread finishes the stream (the client left, or was shut down);
        // cancellation shuts the connection down, which ends the reader. A client that only
        // stopped sending (a half-close, as `echo … | socat` does) still gets a reply to every
        // request it sent, since the stream holds them all.
        var watcher: Task<Void, Never>?
        var iterator = frames.makeAsyncIterator()
        await withTaskCancellationHandler {
            while let frame = await iterator.next() {
                // Every frame the reader passed on holds a permit, given back once it is answered.
                defer { flow.answered() }
                let reply: ControlReply
                var watchHertz: Double?
                switch frame {
                case .line(let bytes):
                    if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
                    do throws(ControlError) {
                        let request = try ControlRequest(line: bytes)
                        if case .watch(let enabled, let hertz) = request {
                            // Wait for the old watcher to finish so no update follows this OK.
                            watcher?.cancel()
                            await watcher?.value
                            watcher = nil
                            watchHertz = enabled ? hertz : nil
                            flow.setWatching(enabled)
                            reply = .ok
                        } else {
                            reply = await handler.handle(request)
                        }
                    } catch {
                        reply = .error(error)
                    }
                case .lineTooLong:
                    reply = .error(
                        ControlError(.lineTooLong, "a request line may be at most \(limits.lineBytes) bytes"))
                }
                guard send(reply, to: connection, id: id) else { break }
                if let watchHertz { watcher = watch(connection, id: id, hertz: watchHertz) }
            }
        } onCancel: {
            connection.shutdown()
        }
        watcher?.cancel()
        await watcher?.value
        // The descriptor is closed once the reader thread is done with it: after the shutdown
        // wakes it (if it still waits for input or for a permit) and it returns. Waited for in
        // a task of its own, which this one's cancellation does not reach: a cancelled task's
        // wait on a stream ends at once, and closing early let the number be reused by the next
        // client's socket while the old reader still received on it, stealing its requests.
        connection.shutdown()
        flow.close()
        while await iterator.next() != nil {}
        await Task { for await _ in readerDone {} }.value
        connection.close()
    }

    /// Sends one line to a client.
    ///
    /// - Returns: Whether the client is still connected.
    private func send(_ reply: ControlReply, to connection: UnixSocketConnection, id: Int) -> Bool {
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

    /// A client's watch: a `STATUS` line every 1/`hertz` seconds, the first at once, until
    /// cancelled or the client is dropped for not reading them. Behind schedule (the process was
    /// stopped, the machine suspended), it sends the latest state once and goes on from now,
    /// rather than every line it missed at once.
    private func watch(_ connection: UnixSocketConnection, id: Int, hertz: Double) -> Task<Void, Never> {
        Task {
            let clock = ContinuousClock()
            let interval = Duration.seconds(1 / hertz)
            var deadline = clock.now
            while !Task.isCancelled {
                let status = await handler.handle(.status)
                guard !Task.isCancelled, send(status, to: connection, id: id) else { return }
                deadline = deadline.advanced(by: interval)
                let now = clock.now
                if deadline < now { deadline = now.advanced(by: interval) }
                try? await clock.sleep(until: deadline)
            }
        }
    }

    /// A client's reader thread: frames what arrives until the peer closes or the connection is
    /// shut down, then finishes the stream, and `done` once it no longer touches the descriptor
    /// (`serve` closes it after that). It waits for a permit before passing each request on, and
    /// for queued replies to be taken before it reads more (see ``ClientFlow``).
    private static func readLoop(
        _ connection: UnixSocketConnection, id: Int, flow: ClientFlow, maximumLineLength: Int, logger: Logger?,
        into continuation: AsyncStream<LineFramer.Frame>.Continuation, done: AsyncStream<Never>.Continuation
    ) {
        var framer = LineFramer(maximumLineLength: maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 4096)
        /// Waits while replies wait unsent for the client: false when it is dropped for not
        /// taking them within the idle timeout, or is gone.
        func repliesTaken() -> Bool {
            guard connection.hasQueuedOutput else { return true }
            switch connection.drain(timeout: flow.idleTimeout) {
            case .sent:
                return true
            case .queued:
                logger?.notice("control client \(id): not reading its replies; dropped")
                connection.shutdown()
                return false
            case .droppedOverLimit, .droppedFailed, .closed:
                return false
            }
        }
        reading: while true {
            guard repliesTaken() else { break }
            do {
                switch flow.wait {
                case .input(let timeout):
                    guard try connection.waitForInput(timeout: timeout) else { continue reading }
                case .idleTimeoutPassed:
                    let seconds = flow.idleTimeout.seconds
                    let error = ControlError(
                        .timeout, "no request for \(DecimalFormat.fixed(seconds, fractionDigits: 0)) s; closing the connection")
                    connection.send(ControlReply.error(error).line)
                    logger?.debug("control client \(id): idle; closed")
                    connection.shutdown()
                    break reading
                }
                let count = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try connection.receive(into: raw) }
                if count == 0 { break }
                // Checked before each request, not only before each read: one read can bring
                // hundreds of them, whose replies would pile up faster than the client takes them.
                for frame in framer.append(buffer[..<count]) {
                    guard repliesTaken(), flow.admit() else { break reading }
                    continuation.yield(frame)
                }
            } catch {
                break  // ECONNRESET and the like: the client is gone either way.
            }
        }
        // A partial line left by a client that disconnected mid-line is discarded.
        continuation.finish()
        done.finish()
    }
}
