import Foundation
import Testing
import Synchronization

/// A `watch` client of the daemon for end-to-end tests: asks for `STATUS` updates and collects
/// them, with their arrival times, on its own thread until stopped or disconnected.
public final class ControlWatcher: Sendable {
    /// One update as it arrived.
    public struct Update: @unchecked Sendable {
        /// The `STATUS` object.
        public let status: [String: Any]
        /// When it arrived.
        public let at: ContinuousClock.Instant
    }

    private let updates = Mutex<[Update]>([])
    private let ended = Atomic(false)
    private let stopping = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Connects, checks the greeting and the `OK`, and starts collecting.
    /// - Throws: when the socket cannot be reached or the daemon refuses.
    public init(path: String, hertz: Double) throws {
        // Only the thread below uses the client after this check.
        nonisolated(unsafe) let client = try ControlClient(path: path, receiveTimeoutSeconds: 2)
        guard client.receive()?["class"] as? String == "VERSION",
            client.request(#"{"cmd":"watch","enable":true,"hz":\#(hertz)}"#)?["class"] as? String == "OK"
        else { throw NSError(domain: "ControlWatcher", code: 1) }
        let thread = Thread { [self] in
            defer { finished.signal() }
            // Times out every 2 s, so a stop is noticed even when no update comes.
            while !stopping.load(ordering: .relaxed) {
                guard let object = client.receive() else {
                    if stopping.load(ordering: .relaxed) { return }
                    ended.store(true, ordering: .relaxed)
                    return
                }
                guard object["class"] as? String == "STATUS" else { continue }
                updates.withLock { $0.append(Update(status: object, at: .now)) }
            }
        }
        thread.start()
    }

    /// The updates so far.
    public var received: [Update] { updates.withLock { $0 } }

    /// Whether the daemon closed the connection (or a 2 s wait for an update timed out).
    public var isDisconnected: Bool { ended.load(ordering: .relaxed) }

    /// The longest wait between updates so far, in seconds.
    public var longestGapSeconds: Double {
        let times = received.map(\.at)
        return zip(times, times.dropFirst()).map { ($1 - $0).seconds }.max() ?? .infinity
    }

    /// Stops collecting and waits for the thread: it looks at least every 2 s; 10 s at most.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        if finished.wait(timeout: .now() + .seconds(10)) == .timedOut { Issue.record("the watcher's thread did not stop within 10 s") }
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
