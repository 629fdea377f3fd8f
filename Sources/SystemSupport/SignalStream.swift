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

    /// The signals that end the daemon: SIGTERM (systemd's stop) and SIGINT (a terminal's ^C).
    public static let stopping: [Int32] = [SIGTERM, SIGINT]

    /// The other signals whose default action ends a process and that anyone may send
    /// (`kill`, `systemctl reload`, a closing terminal, an expired timer): caught, logged and
    /// otherwise ignored, so none can end the daemon with the motor running. SIGHUP does not
    /// reload the configuration: a restart does. The signals the kernel raises for a fault
    /// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP) still end it, and
    /// systemd's ExecStopPost then switches the motor off.
    public static let ignored: [Int32] = [
        SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT,
    ]

    /// Ignores, without a word, SIGPIPE (a write to a closed pipe or socket then fails with
    /// EPIPE: a closed stderr or a client gone would otherwise end the daemon on the next
    /// write), SIGPROF (a profiler's timer; catching it through a dispatch source made the
    /// process spin, so it is only ignored) and the real-time signals SIGRTMIN to SIGRTMAX
    /// (`kill -RTMIN+3`), whose default action also ends the process and which the daemon has
    /// no use for.
    public static func ignoreQuietly() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGPROF, SIG_IGN)
        for number in realTimeSignals { signal(number, SIG_IGN) }
    }

    /// SIGRTMIN…SIGRTMAX as this C library numbers them (glibc keeps the first two or three
    /// of the kernel's for its threads, hence the functions rather than constants).
    public static var realTimeSignals: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// The conventional name of a signal, e.g. `SIGTERM`.
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        case SIGALRM: "SIGALRM"
        case SIGVTALRM: "SIGVTALRM"
        case SIGPROF: "SIGPROF"
        case SIGIO: "SIGIO"
        case SIGXCPU: "SIGXCPU"
        case SIGXFSZ: "SIGXFSZ"
        case SIGPWR: "SIGPWR"
        case SIGSTKFLT: "SIGSTKFLT"
        default: "signal \(number)"
        }
    }
}
