@preconcurrency import Glibc
import Synchronization

/// A counting semaphore for a thread that must wait for permission (a client's reader thread
/// waiting until its earlier requests are answered), with a ``close()`` that releases any wait
/// for good. Corresponds to `sem_init`, `sem_wait`, `sem_post` and `sem_destroy`.
///
/// Only for code on its own OS thread: ``acquire()`` blocks the thread, which in async code
/// would hold up one of Swift concurrency's few cooperative threads.
public final class ThreadSemaphore: @unchecked Sendable {
    // @unchecked: the sem_t lives at a fixed address for the object's life, and sem_* calls are
    // safe from any thread; `isClosed` is atomic.
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let isClosed = Atomic<Bool>(false)

    /// A semaphore holding `permits` permits.
    ///
    /// - Parameter permits: How many ``acquire()`` calls pass before one waits; not negative.
    public init(permits: Int) {
        precondition(permits >= 0 && permits <= Int(Int32.max), "a semaphore cannot hold \(permits) permits")
        semaphore = .allocate(capacity: 1)
        // Fails only for a value above SEM_VALUE_MAX (INT_MAX on Linux), excluded above.
        sem_init(semaphore, 0, UInt32(permits))
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Takes a permit, waiting for one if none is left; signals do not end the wait.
    ///
    /// - Returns: false once ``close()`` was called (then at once, without a permit).
    public func acquire() -> Bool {
        guard !isClosed.load(ordering: .acquiring) else { return false }
        while sem_wait(semaphore) != 0 && errno == EINTR {}
        guard !isClosed.load(ordering: .acquiring) else {
            sem_post(semaphore)  // Passes the wake-up on to any other waiter.
            return false
        }
        return true
    }

    /// Gives a permit back, waking a waiter.
    public func release() { sem_post(semaphore) }

    /// Makes every present and future ``acquire()`` return false.
    public func close() {
        isClosed.store(true, ordering: .releasing)
        sem_post(semaphore)
    }
}
