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

    /// Starts catching the signals; each one sets ``hasFired`` and calls `interrupter`.
    init(interrupter: ControlConnection.Interrupter) {
        let queue = DispatchQueue(label: "waypointctl.signals")
        let fired = self.fired
        sources = Self.signals.map { number in
            // The default action would end the program before the terminal is restored.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                fired.value.store(true, ordering: .sequentiallyConsistent)
                interrupter.interrupt()
            }
            source.resume()
            return source
        }
    }

    /// Whether a signal arrived.
    var hasFired: Bool { fired.value.load(ordering: .sequentiallyConsistent) }

    /// Stops listening, before the connection (whose descriptor the handler uses) goes away.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
