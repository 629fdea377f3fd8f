import Foundation
import Synchronization

/// Collects what an `AsyncStream` yields, with the time each element arrived, so a test can
/// wait for a condition with a deadline and then inspect everything.
public final class StreamRecorder<Element: Sendable>: Sendable {
    private final class Storage: Sendable {
        let elements = Mutex<[(element: Element, at: ContinuousClock.Instant)]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    /// Starts iterating `stream` in the background.
    public init(_ stream: AsyncStream<Element>) {
        task = Task { [storage] in
            for await element in stream {
                storage.elements.withLock { $0.append((element, ContinuousClock.now)) }
            }
        }
    }

    deinit { stop() }

    /// Everything so far.
    public var recorded: [Element] { storage.elements.withLock { $0.map(\.element) } }

    /// Everything so far, with arrival times.
    public var timeline: [(element: Element, at: ContinuousClock.Instant)] { storage.elements.withLock { $0 } }

    /// Stops iterating, which ends the stream's producer.
    public func stop() {
        task.cancel()
    }

    /// Polls until `condition` holds for what was recorded, or `timeout` passes.
    /// - Returns: whether the condition held.
    @discardableResult
    public func wait(timeout: Duration, until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(recorded) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(recorded)
    }
}
