import Synchronization

/// Runs a program's async work from a synchronous `main`, whose thread waits for it in
/// `sem_wait`, its signal mask untouched.
///
/// Top-level `await` would end `main` in libdispatch's `dispatch_main`, which parks the main
/// thread in `sigsuspend` with an empty mask: every signal is then open on that thread, so one
/// that ``SignalStream/block(_:)`` held for the signal thread could be delivered there instead,
/// with its default action (SIGINT ended `motor-test` with the motor on) or none (ignored).
public enum AsyncMain {
    /// Runs `body` on Swift concurrency's pool and waits for its result on this thread.
    ///
    /// - Parameter body: The program's work; nothing in it may need the main actor, whose
    ///   queue no one drains.
    /// - Returns: What `body` returned.
    public static func run<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
        let outcome = Outcome<Result>()
        Task.detached {
            let result = await body()
            outcome.value.withLock { $0 = result }
            outcome.done.release()
        }
        _ = outcome.done.acquire()
        return outcome.value.withLock { $0! }
    }

    /// The result, and the semaphore main waits on for it.
    private final class Outcome<Result: Sendable>: Sendable {
        let value = Mutex<Result?>(nil)
        let done = ThreadSemaphore(permits: 0)
    }
}
