@preconcurrency import Glibc

/// A mutex and a condition variable whose timed waits count on CLOCK_MONOTONIC (a wall clock
/// set back by NTP cannot stretch them): where a thread of our own waits until another changes
/// what the mutex guards. The motor's and the sampling thread's alarm (``ThreadAlarm``) and the
/// companion's event streams wait in one. `pthread_mutex_*` and `pthread_cond_*` are called here
/// and nowhere else.
///
/// Only for code on its own OS thread: a wait blocks the thread.
public final class MonotonicCondition: @unchecked Sendable {
    // @unchecked: the mutex and the condition live at fixed addresses for the object's life, and
    // pthread calls are safe from any thread.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A mutex and a condition, neither held.
    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Inside ``locked(_:)``: releases the mutex until a signal, then takes it again. Wakes may
    /// be spurious: wait in a loop over the condition waited for.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Inside ``locked(_:)``: as ``wait()``, or until `deadline` (see ``deadline(after:)``).
    /// - Returns: false when the deadline came.
    public func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes one waiter.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// The instant on CLOCK_MONOTONIC `duration` from now, for ``wait(until:)``.
    public static func deadline(after duration: Duration) -> timespec {
        var until = timespec()
        clock_gettime(CLOCK_MONOTONIC, &until)
        let (seconds, attoseconds) = duration.components
        until.tv_sec += Int(seconds)
        until.tv_nsec += Int(attoseconds / 1_000_000_000)
        if until.tv_nsec >= 1_000_000_000 {
            until.tv_sec += 1
            until.tv_nsec -= 1_000_000_000
        }
        return until
    }
}
