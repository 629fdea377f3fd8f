@preconcurrency import Glibc

/// A dedicated OS thread for work that must block in a C library call (libgps waits in
/// `pselect`), so that it never occupies one of Swift concurrency's few cooperative threads.
public enum BlockingThread {
    /// The longest thread name Linux keeps, bytes (`TASK_COMM_LEN` less its NUL).
    public static let maximumNameBytes = 15

    /// Starts `body` on a new detached thread.
    ///
    /// Corresponds to `pthread_create` with a detached attribute.
    /// - Parameters:
    ///   - name: What `ps -L`, `top -H` and /proc call the thread (at most ``maximumNameBytes``
    ///     bytes are kept), so that each thread's CPU and wake-ups can be told apart.
    ///   - body: the work; the thread ends when it returns.
    /// - Throws: `Errno` when the thread cannot be created (EAGAIN: out of threads or memory).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        final class Box: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = String(decoding: name.utf8.prefix(BlockingThread.maximumNameBytes), as: UTF8.self)
                self.body = body
            }

            /// On the new thread: its name, then the work.
            func run() {
                BlockingThread.nameThisThread(name)
                body()
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(name: name, body: body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.run()
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
    public static func run(
        name: String, onCancel: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () -> Void
    ) async throws(Errno) {
        let failure: Errno? = await withTaskCancellationHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<Errno?, Never>) in
                do throws(Errno) {
                    try start(name: name) {
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

    /// Names the calling thread, as `pthread_setname_np` would (which Glibc's module does not
    /// export): by writing its `comm` in /proc. A failure leaves the inherited name, which only
    /// makes the thread harder to tell apart.
    fileprivate static func nameThisThread(_ name: String) {
        guard let descriptor = try? FileDescriptor.open("/proc/thread-self/comm", .writeOnly, options: [], permissions: 0) else {
            return
        }
        _ = try? descriptor.writeAll(Array(name.utf8))
        try? descriptor.close()
    }
}
