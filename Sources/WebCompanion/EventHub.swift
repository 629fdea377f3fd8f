@preconcurrency import Glibc
import ControlProtocol
import DaemonClient
import SystemSupport
import TextFormats

/// The daemon's state as Server-Sent Events for every open page, from one `watch` on the
/// control socket however many pages listen: a thread of its own watches while at least one
/// stream is open and sleeps otherwise; each stream's connection thread waits for the next
/// state and writes it. A stream sends only states that differ from the last it sent, and a
/// comment every ``keepAliveSeconds`` so that proxies and phones keep the connection.
public final class EventHub: @unchecked Sendable {
    // @unchecked: every mutable field is read and written with `condition`'s mutex held.

    /// The most streams at once; a page beyond is answered 503.
    public static let maximumStreams = 8
    /// The `watch` rate asked of the daemon, states a second: the compass moves smoothly at
    /// 5, and a change reaches the page within 0.2 s.
    public static let watchHertz = 5.0
    /// Seconds between keep-alive comments on a quiet stream.
    public static let keepAliveSeconds = 15.0
    /// How long to wait before watching again after the daemon went away, seconds.
    static let retrySeconds = 1.0

    private let connect: @Sendable () throws(ConnectionError) -> ControlConnection
    private let condition = MonotonicCondition()
    /// The latest event, whole (`event: status\ndata: …\n\n`), and its number.
    private var latest: [UInt8] = []
    private var generation: UInt64 = 0
    private var streams = 0
    private var closed = false
    /// Changes a page is making (``publishingChange(_:)``): the watch's states wait meanwhile.
    private var changesUnderWay = 0
    private var watching: ControlConnection.Interrupter?
    private let logger: Logger

    /// A hub whose watcher opens its connections with `connect` (past the greeting).
    public init(logger: Logger, connect: @escaping @Sendable () throws(ConnectionError) -> ControlConnection) {
        self.connect = connect
        self.logger = logger
    }

    /// Starts the watcher's thread.
    public func start() throws(Errno) {
        try BlockingThread.start(name: "events") { [self] in watchWhileWanted() }
    }

    /// Ends every stream and the watcher: before the server stops, whose threads they hold.
    public func close() {
        let interrupter = locked { () -> ControlConnection.Interrupter? in
            closed = true
            return watching
        }
        interrupter?.interrupt()
        condition.broadcast()
    }

    /// How often a stream asks whether it may go on, seconds: a revoked session's stream ends
    /// within this.
    public static let validitySeconds = 0.5

    /// A new stream, which lasts while `valid` says so (its session is not revoked or expired),
    /// or nil when ``maximumStreams`` are open.
    public func subscribe(while valid: @escaping @Sendable () -> Bool = { true }) -> (any HTTPStream)? {
        let admitted = locked { () -> Bool in
            guard streams < Self.maximumStreams, !closed else { return false }
            streams += 1
            return true
        }
        guard admitted else { return nil }
        condition.broadcast()  // wakes the watcher
        return Stream(hub: self, valid: valid)
    }

    // MARK: - The watcher

    private func watchWhileWanted() {
        while true {
            let go = locked { () -> Bool in
                while streams == 0 && !closed { condition.wait() }
                return !closed
            }
            guard go else { return }
            do throws(ConnectionError) {
                try watchOnce()
            } catch {
                publish(Self.event("daemon", JSONWriter.line([("error", .string("the daemon does not answer: \(error)"))])))
                ThreadSleep.sleep(for: .milliseconds(Int64(Self.retrySeconds * 1000)))
            }
        }
    }

    /// One `watch` on one connection, until no stream is left, the hub closes or the daemon goes.
    private func watchOnce() throws(ConnectionError) {
        let connection = try connect()
        let stillWanted = locked { () -> Bool in
            guard !closed else { return false }
            watching = connection.interrupter
            return true
        }
        defer { locked { watching = nil } }
        guard stillWanted else { return }
        try connection.send(.watch(enabled: true, hertz: Self.watchHertz))
        while true {
            let received = try connection.receive()
            guard locked({ streams > 0 && !closed }) else { return }
            // While a page makes a change, the state it marks comes first (publishingChange).
            if case .status = received.reply, locked({ changesUnderWay == 0 }) {
                publish(Self.event("status", String(decoding: received.line, as: UTF8.self)))
            }
        }
    }

    /// Runs `change` (a page's request that changes the daemon's state, and the state asked
    /// after it) with the watch's states held back, then sends that state (marked with the
    /// page's change id) to every page at once: the first state a page meets with the change is
    /// the marked one, and none waits for the watch's next tick.
    /// - Returns: what `change` returned besides the state.
    package func publishingChange<Result, Failure: Error>(_ change: () throws(Failure) -> (Result, JSONValue?)) throws(Failure) -> Result {
        locked { changesUnderWay += 1 }
        let outcome: (Result, JSONValue?)
        do throws(Failure) {
            outcome = try change()
        } catch {
            locked { changesUnderWay -= 1 }
            throw error
        }
        let event = outcome.1.map { Self.event("status", String(decoding: JSONWriter.bytes($0, layout: .compact), as: UTF8.self)) }
        // In one step, so that no state of the watch's comes between.
        let changed = locked { () -> Bool in
            changesUnderWay -= 1
            return event.map(replaceLatest) ?? false
        }
        if changed { condition.broadcast() }
        return outcome.0
    }

    private func publish(_ event: [UInt8]) {
        if locked({ replaceLatest(event) }) { condition.broadcast() }
    }

    /// Makes `event` the latest, unless it is already; called with the lock held.
    private func replaceLatest(_ event: [UInt8]) -> Bool {
        guard event != latest else { return false }
        latest = event
        generation &+= 1
        return true
    }

    /// `event: NAME\ndata: TEXT\n\n`; the text is one line (JSON written compact).
    static func event(_ name: String, _ data: String) -> [UInt8] { Array("event: \(name)\ndata: \(data)\n\n".utf8) }

    // MARK: - A stream

    /// What a stream's thread waits for: a new event, a time to look again, or the end.
    fileprivate enum Next {
        case event([UInt8], UInt64)
        case quiet
        case end
    }

    /// The next event after `seen`, or ``Next/quiet`` when none came for `seconds`.
    fileprivate func next(after seen: UInt64, within seconds: Double) -> Next {
        let deadline = MonotonicCondition.deadline(after: .milliseconds(Int64(seconds * 1000)))
        return locked {
            while !closed && generation == seen {
                if !condition.wait(until: deadline) { return closed ? .end : .quiet }
            }
            return closed ? .end : .event(latest, generation)
        }
    }

    fileprivate func unsubscribe() { locked { streams -= 1 } }

    private func locked<T>(_ body: () -> T) -> T { condition.locked(body) }

    /// One page's stream: the events it has yet to write.
    private final class Stream: HTTPStream, @unchecked Sendable {
        // @unchecked: used by its connection's thread only.
        private let hub: EventHub
        private let valid: @Sendable () -> Bool
        private var seen: UInt64 = 0
        /// Seconds of quiet since the last thing written, toward the next keep-alive.
        private var quietSeconds = 0.0
        /// Bytes of the current event not yet written (an event larger than the library's buffer).
        private var pending: ArraySlice<UInt8> = Array("retry: 2000\n\n".utf8)[...]
        private var finished = false

        init(hub: EventHub, valid: @escaping @Sendable () -> Bool) {
            self.hub = hub
            self.valid = valid
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
            while pending.isEmpty {
                // Asked before each event and at least every validitySeconds: a revoked session
                // receives nothing more, not even the state already waiting.
                let next = hub.next(after: seen, within: EventHub.validitySeconds)
                guard valid() else { return nil }
                switch next {
                case .end: return nil
                case .quiet:
                    quietSeconds += EventHub.validitySeconds
                    if quietSeconds >= EventHub.keepAliveSeconds { pending = Array(": keep-alive\n\n".utf8)[...] }
                case .event(let bytes, let generation):
                    seen = generation
                    pending = bytes[...]
                }
            }
            quietSeconds = 0
            let count = min(buffer.count, pending.count)
            buffer.copyBytes(from: pending.prefix(count))
            pending = pending.dropFirst(count)
            return count
        }

        func finish() {
            guard !finished else { return }
            finished = true
            hub.unsubscribe()
        }
    }
}
