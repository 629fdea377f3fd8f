@preconcurrency import Glibc

/// Where a thread of our own waits: until an instant of a clock, or until another thread wakes
/// it, whichever comes first. The motor's thread waits in one between edges (woken by a silence,
/// a pattern, a stop), the sampling thread between reads (woken when the heading starts to
/// matter, or to stop). A wake that comes while the thread is busy is kept for its next wait, so
/// none is lost; after ``stop()`` every wait returns at once.
///
/// On `ContinuousClock` and ``ScaledClock`` the thread blocks in `pthread_cond_timedwait` on
/// CLOCK_MONOTONIC (for the real time the scaled clock takes to reach the deadline): one wakeup
/// per deadline and no allocation (Swift's `Clock.sleep` allocates on every call, and wakes a
/// timer thread and a worker thread). Any other clock (the manual clock of the tests) is waited
/// on through its own `sleep(until:)`, in a task that a wake cancels.
public final class ThreadAlarm<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    // @unchecked: every mutable field is read and written with `condition`'s mutex held.
    private let clock: C
    /// The clock as a ``ScaledClock``, when it is one: its waits are counted in real time.
    private let scaled: ScaledClock?
    private let condition = MonotonicCondition()
    private var isWoken = false
    private var stopped = false
    /// Whether a thread waits with no deadline now (``isWaitingForWake``).
    private var waitingForWake = false
    /// Counts the waits on a clock other than `ContinuousClock`, so that a late timer of an
    /// earlier wait cannot end a later one.
    private var generation = 0
    private var firedGeneration = -1

    /// An alarm for waits on `clock`.
    public init(clock: C) {
        self.clock = clock
        scaled = clock as? ScaledClock
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { locked { stopped } }

    /// Whether a thread waits for a wake now, with no deadline: how a test knows a thread
    /// reached its idle wait (rather than not having started).
    public var isWaitingForWake: Bool { locked { waitingForWake } }

    /// Ends the wait under way, or the next one.
    public func wake() {
        locked { isWoken = true }
        condition.signal()
    }

    /// Ends the wait under way and every later one at once.
    public func stop() {
        locked {
            stopped = true
            isWoken = true
        }
        condition.signal()
    }

    /// Blocks the calling thread until `deadline` (nil: no deadline) or a wake.
    /// - Returns: true when woken (or stopped), false when the deadline came.
    public func wait(until deadline: C.Instant?) -> Bool {
        guard let deadline else { return waitForWake() }
        let left = clock.now.duration(to: deadline)
        if C.self == ContinuousClock.self { return wait(for: left) }
        if let scaled { return wait(for: scaled.realDuration(of: left)) }
        if left <= .zero { return consumeWake() }
        return waitOnClock(until: deadline)
    }

    /// Takes a pending wake without blocking.
    private func consumeWake() -> Bool {
        locked {
            defer { isWoken = stopped }
            return isWoken
        }
    }

    private func waitForWake() -> Bool {
        locked {
            waitingForWake = true
            while !isWoken { condition.wait() }
            waitingForWake = false
            isWoken = stopped
            return true
        }
    }

    /// A wait of `duration` (the time left on the player's clock), counted on CLOCK_MONOTONIC.
    private func wait(for duration: Duration) -> Bool {
        guard duration > .zero else { return consumeWake() }
        let until = MonotonicCondition.deadline(after: duration)
        return locked {
            while !isWoken {
                if !condition.wait(until: until) { break }
            }
            defer { isWoken = stopped }
            return isWoken
        }
    }

    /// A wait on any other clock: its `sleep(until:)` in a task, cancelled when woken.
    private func waitOnClock(until deadline: C.Instant) -> Bool {
        let current: Int = locked {
            generation += 1
            return generation
        }
        let sleeper = Task { [clock] in
            guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
            self.locked { self.firedGeneration = max(self.firedGeneration, current) }
            self.condition.signal()
        }
        let woken = locked {
            while !isWoken && firedGeneration < current { condition.wait() }
            defer { isWoken = stopped }
            return isWoken
        }
        sleeper.cancel()
        return woken
    }

    private func locked<T>(_ body: () -> T) -> T { condition.locked(body) }
}
