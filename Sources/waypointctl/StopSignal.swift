import DaemonClient
import Dispatch
@preconcurrency import Glibc
import Synchronization

/// SIGINT and SIGTERM while watching: recorded, and the blocked `recv` woken, by a dispatch
/// source, never inside a signal handler; the main loop then ends normally and restores the
/// terminal.
final class StopSignal {
    /// Set once by the handler, read by the main loop.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private let fired = Flag()
    private let sources: [any DispatchSourceSignal]
    private static let signals = [SIGINT, SIGTERM]
    /// The longest wait for the sources to be registered, seconds; normally a millisecond.
    private static let registrationTimeoutSeconds = 5

    /// Starts catching the signals; each one sets ``hasFired`` and calls `interrupter`. Returns
    /// once the signals are caught.
    init(interrupter: ControlConnection.Interrupter) {
        let queue = DispatchQueue(label: "waypointctl.signals")
        let fired = self.fired
        let registered = DispatchSemaphore(value: 0)
        sources = Self.signals.map { number in
            // The default action would end the program before the terminal is restored.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                fired.value.store(true, ordering: .sequentiallyConsistent)
                interrupter.interrupt()
            }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // `resume` registers a source asynchronously, on libdispatch's manager thread; until
        // then a signal meets SIG_IGN and is lost, and the watch would never end. On a busy
        // machine that window is long enough to matter, so wait it out.
        for _ in sources {
            _ = registered.wait(timeout: .now() + .seconds(Self.registrationTimeoutSeconds))
        }
    }

    /// Whether a signal arrived.
    var hasFired: Bool { fired.value.load(ordering: .sequentiallyConsistent) }

    /// Stops listening, before the connection (whose descriptor the handler uses) goes away.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
