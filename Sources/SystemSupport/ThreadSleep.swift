@preconcurrency import Glibc

/// Blocking sleep for code that runs on its own OS thread (never in async code, which should
/// use `Task.sleep`).
public enum ThreadSleep {
    /// Sleeps the calling thread for `duration`, resuming after signals. Corresponds to
    /// `nanosleep`.
    public static func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
