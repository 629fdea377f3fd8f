import Synchronization

/// A clock that moves only when the test says so. Code under test sleeps on it as on a real
/// clock; `advanceToNextDeadline()` wakes the earliest sleeper, so a whole minute of motor
/// rhythm runs in milliseconds and always the same way.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: a duration since its start.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's start.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// A clock at offset zero.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone sleeps until.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state in
                    guard deadline > state.now else { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` and wakes everyone due by then.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time to the earliest deadline and wakes everyone due by then.
    /// - Returns: the new time, or nil when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Instant? {
        let due: [Sleeper] = state.withLock { state in
            guard let next = state.sleepers.map(\.deadline).min() else { return [] }
            state.now = max(state.now, next)
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        guard !due.isEmpty else { return nil }
        for sleeper in due { sleeper.continuation.resume() }
        return now
    }

    /// Waits (in real time) until at least `count` tasks sleep on the clock: at once, usually;
    /// the bound is for a machine loaded by other tests (another `make test` beside this one
    /// kept a player's thread from its sleep for over 2 s).
    /// - Returns: whether they did within `timeout`.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while sleeperCount < count {
            guard ContinuousClock.now < deadline else { return false }
            await Task.yield()
            try? await Task.sleep(for: .microseconds(200))
        }
        return true
    }
}
