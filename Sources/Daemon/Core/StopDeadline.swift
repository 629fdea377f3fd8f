import Synchronization
import SystemSupport

/// A stop that must not hang: once armed, it runs its expiry action (switch the motor off, exit)
/// unless it is disarmed within its deadline. A task that ignores cancellation, or a device
/// call that blocks, must not keep a motor running or systemd waiting.
public final class StopDeadline: Sendable {
    private let disarmed = Atomic(false)

    /// A deadline, not yet armed.
    public init() {}

    /// Starts the clock on its own thread.
    ///
    /// - Parameters:
    ///   - duration: How long stopping may take.
    ///   - onExpiry: What to do when it took longer; runs on the deadline's thread.
    /// - Throws: `Errno` when no thread could be started.
    public func arm(after duration: Duration, onExpiry: @escaping @Sendable () -> Void) throws(Errno) {
        try BlockingThread.start(name: "stop deadline") { [self] in
            ThreadSleep.sleep(for: duration)
            if !disarmed.load(ordering: .acquiring) { onExpiry() }
        }
    }

    /// Stopping finished in time: the expiry action will not run.
    public func disarm() { disarmed.store(true, ordering: .releasing) }
}
