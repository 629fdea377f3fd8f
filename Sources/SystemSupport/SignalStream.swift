@preconcurrency import Glibc

/// Signals taken by a thread of their own with `sigwaitinfo`, never by a handler, and never lost.
///
/// The signals are first blocked (``block(_:)``), in the main thread before any other starts, so
/// that every thread inherits the mask: a signal sent from then on stays pending until the signal
/// thread takes it, however early it comes. (A dispatch signal source, used before, set each
/// signal to `SIG_IGN` and was armed later on libdispatch's own thread; a signal sent in between
/// was discarded, and `motor-test` once slept 15 minutes with the motor on.) A signal sent before
/// the mask is set meets its default action: the process ends before it has driven anything.
public enum SignalStream {
    /// Blocks `signals` in the calling thread, and so in every thread it starts afterwards: each
    /// one sent from now on waits, pending, for ``receive(_:_:)`` or ``make(_:)``. Call it in
    /// `main`, before the first `await` (which may start a thread of Swift concurrency's pool).
    /// Programs started with ``SpawnedProcess`` get the usual mask and actions back.
    ///
    /// Corresponds to `pthread_sigmask(SIG_BLOCK, …)`.
    public static func block(_ signals: [Int32]) {
        var set = signalSet(signals)
        // Fails only for an invalid `how`; the set's bad numbers are ignored by the kernel.
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that takes `signals` (blocked first with ``block(_:)``) one at a time
    /// and calls `handler` with each, on that thread, for the rest of the process's life. Two
    /// of one signal sent while the first waits are one (the kernel keeps one pending).
    ///
    /// - Throws: `Errno` when the thread cannot be started; the signals are then unblocked, so
    ///   that their default actions apply rather than none.
    public static func receive(_ signals: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) throws(Errno) {
        let numbers = signals
        do throws(Errno) {
            try BlockingThread.start(name: "signals") {
                var set = signalSet(numbers)
                while true {
                    // EINTR cannot end the wait (every signal it could be is blocked here), and
                    // no other error is possible for a valid set.
                    if case .success(let number) = SystemCall.valueOrErrno({ sigwaitinfo(&set, nil) }) { handler(number) }
                }
            }
        } catch {
            var set = signalSet(signals)
            _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
            throw error
        }
    }

    /// The blocked `signals` as an async sequence, through ``receive(_:_:)``'s thread. The
    /// first one is kept until it is read; those sent while it waits are dropped, since each
    /// of these streams is read for the first signal (stop) and nothing else. Memory is one
    /// element whatever is sent.
    ///
    /// - Throws: `Errno` when the signal thread cannot be started (the signals are unblocked).
    public static func make(_ signals: [Int32]) throws(Errno) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingOldest(1))
        try receive(signals) { continuation.yield($0) }
        return stream
    }

    /// The signals that end the daemon: SIGTERM (systemd's stop) and SIGINT (a terminal's ^C).
    public static let stopping: [Int32] = [SIGTERM, SIGINT]

    /// The other signals whose default action ends a process and that anyone may send
    /// (`kill`, `systemctl reload`, a closing terminal, an expired timer): taken, logged and
    /// otherwise ignored, so none can end the daemon with the motor running. SIGHUP does not
    /// reload the configuration: a restart does. The signals the kernel raises for a fault
    /// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP) still end it, and
    /// systemd's ExecStopPost then switches the motor off.
    public static let ignored: [Int32] = [
        SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT,
    ]

    /// Ignores, without a word, SIGPIPE (a write to a closed pipe or socket then fails with
    /// EPIPE: a closed stderr or a client gone would otherwise end the daemon on the next
    /// write), SIGPROF (a profiler's timer) and the real-time signals SIGRTMIN to SIGRTMAX
    /// (`kill -RTMIN+3`), whose default action also ends the process and which the daemon has
    /// no use for. (An ignored signal is discarded when sent, so none of these can be lost
    /// in a way that matters.)
    public static func ignoreQuietly() {
        for number in quietlyIgnored { signal(number, SIG_IGN) }
    }

    /// The signals ``ignoreQuietly()`` ignores.
    static var quietlyIgnored: [Int32] { [SIGPIPE, SIGPROF] + Array(realTimeSignals) }

    /// Every signal a program of ours may block or ignore: what a child started with
    /// ``SpawnedProcess`` has unblocked and set back to its default action.
    static var inheritedByChildren: [Int32] { stopping + ignored + quietlyIgnored }

    /// SIGRTMIN…SIGRTMAX as this C library numbers them (glibc keeps the first two or three
    /// of the kernel's for its threads, hence the functions rather than constants).
    public static var realTimeSignals: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// A `sigset_t` holding `signals`.
    static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }

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
