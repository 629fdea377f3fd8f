@preconcurrency import Glibc
@preconcurrency import Dispatch

/// Signals as an async sequence: the handler only records the signal (through a dispatch
/// source), and the program reacts in ordinary async code, never inside a signal handler.
public enum SignalStream {
    /// Starts catching `signals` (their default action is switched off) and yields each one as
    /// it arrives. Keep the stream alive for as long as the signals should be caught.
    public static func make(_ signals: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "waypointd.signals")
        let sources = signals.map { number in
            // Ignore first, so the default action (terminate) cannot win the race.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        continuation.onTermination = { _ in sources.forEach { $0.cancel() } }
        return stream
    }

    /// The conventional name of a signal, e.g. `SIGTERM`.
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
