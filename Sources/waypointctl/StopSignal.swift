import DaemonClient
@preconcurrency import Glibc
import Synchronization
import SystemSupport

/// SIGINT and SIGTERM while watching: taken by the signal thread (``SignalStream``), which
/// records them and wakes the blocked `recv`, never inside a signal handler; the main loop then
/// ends normally and restores the terminal. Signals are blocked before the thread starts, so one
/// sent at any moment after ``init(interrupter:)`` is acted on.
final class StopSignal {
    /// Whether a signal came, and whether the watch still listens; the handler runs under the
    /// lock, so once ``cancel()`` returns it no longer touches the connection.
    private final class Flags: Sendable {
        struct Values {
            var fired = false
            var cancelled = false
        }
        let values = Mutex(Values())
    }

    private let flags = Flags()
    private static let signals = [SIGINT, SIGTERM]

    /// Starts taking the signals; each one sets ``hasFired`` and calls `interrupter`. waypointctl
    /// is single-threaded until here, so blocking the signals in this thread blocks them in all.
    /// If the signal thread cannot start, the signals keep their default action (end the program;
    /// the terminal is then left as the watch drew it).
    init(interrupter: ControlConnection.Interrupter) {
        SignalStream.block(Self.signals)
        let flags = self.flags
        try? SignalStream.receive(Self.signals) { _ in
            flags.values.withLock { flags in
                guard !flags.cancelled else { return }
                flags.fired = true
                interrupter.interrupt()
            }
        }
    }

    /// Whether a signal arrived.
    var hasFired: Bool { flags.values.withLock { $0.fired } }

    /// Stops listening, before the connection (whose descriptor the handler uses) goes away.
    /// waypointctl ends soon after; a signal sent meanwhile stays pending.
    func cancel() {
        flags.values.withLock { $0.cancelled = true }
    }
}
