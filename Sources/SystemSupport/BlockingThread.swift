@preconcurrency import Glibc

/// A dedicated OS thread for work that must block in a C library call (libgps waits in
/// `pselect`), so that it never occupies one of Swift concurrency's few cooperative threads.
public enum BlockingThread {
    /// Starts `body` on a new detached thread.
    ///
    /// Corresponds to `pthread_create` with a detached attribute.
    /// - Parameter body: the work; the thread ends when it returns.
    /// - Throws: `Errno` when the thread cannot be created (EAGAIN: out of threads or memory).
    public static func start(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(body: body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw Errno(rawValue: result)
        }
    }

    /// Runs `body` on a new thread and waits, without holding a cooperative thread, until it
    /// returns: a service's loop run from its task. Cancelling the task calls `onCancel`, which
    /// must make `body` return (stop its alarm, shut its socket).
    ///
    /// - Throws: `Errno` when the thread cannot be created; `body` has not run then.
    public static func run(onCancel: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () -> Void) async throws(Errno) {
        let failure: Errno? = await withTaskCancellationHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<Errno?, Never>) in
                do throws(Errno) {
                    try start {
                        body()
                        finished.resume(returning: nil)
                    }
                } catch {
                    finished.resume(returning: error)
                }
            }
        } onCancel: {
            onCancel()
        }
        if let failure { throw failure }
    }
}
