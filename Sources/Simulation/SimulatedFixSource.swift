import Geodesy
import GPSClient
import Synchronization

/// A GPS receiver for `--simulate` and tests: reports where the simulated walker is as 1 Hz
/// fixes with a real receiver's errors (`SimulatedGPSReceiver`), after a `.connected` event, as
/// gpsd would.
///
/// The walker belongs to the simulation driver, which steps it; this source only looks at it,
/// through `truth`, a `@Sendable` closure that returns a snapshot (for example by reading a
/// `Mutex<SimulatedWalker>` the driver also holds). Time comes from `clock`: `ContinuousClock`
/// in production, so fixes are a second apart in real time; a manual clock in tests.
public struct SimulatedFixSource<C: Clock>: GPSFixSource where C: Sendable, C.Duration == Duration {
    /// Returns the truth now: where the wearer is, how fast and which way they go; nil while
    /// the receiver reports nothing at all (as when gpsd or the antenna is gone).
    public typealias TruthProvider = @Sendable () -> SimulatedGPSReceiver.Truth?

    /// The address reported in `.connected`: no gpsd is involved, and the name says so in
    /// `status`.
    public static var simulatedServer: GPSServerAddress { GPSServerAddress(host: "simulated", port: 0) }

    private let receiver: SimulatedGPSReceiver
    private let clock: C
    private let interval: Duration
    private let truth: TruthProvider

    /// A source whose first fix comes at once, then one per `interval` on `clock`.
    /// - Parameters:
    ///   - receiver: the error model, with the time and seed of the first fix; each call to
    ///     `events()` starts from this state, so two streams report the same fixes.
    ///   - clock: what the source sleeps on between fixes.
    ///   - interval: time between fixes. Default 1 s, a 1 Hz receiver; the fixes' own times step
    ///     by 1 s whatever the interval, so a test can run faster than real time.
    ///   - truth: the walker's current state.
    public init(
        receiver: SimulatedGPSReceiver, clock: C, interval: Duration = .seconds(1),
        truth: @escaping TruthProvider
    ) {
        self.receiver = receiver
        self.clock = clock
        self.interval = interval
        self.truth = truth
    }

    /// `.connected`, then a fix now and one every `interval`, until the consumer stops iterating.
    ///
    /// The stream produces each event in the consumer's own task when it asks for it, so no task
    /// is left running when the consumer stops, and the deadline of each fix is the previous
    /// deadline plus `interval`, so the rate does not drift with the consumer's latency.
    public func events() -> AsyncStream<GPSEvent> {
        let state = StreamState<C.Instant>(receiver: receiver)
        let clock = self.clock
        let interval = self.interval
        let truth = self.truth
        return AsyncStream(unfolding: {
            let step = state.next(now: clock.now, interval: interval)
            switch step {
            case .connect:
                return .connected(Self.simulatedServer)
            case .fixAt(var deadline):
                while true {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        // Cancelled: the consumer has gone.
                        return nil
                    }
                    if let now = truth() { return .fix(state.fix(truth: now)) }
                    // Silent this second: the receiver's clock runs on, its next report is due later.
                    state.skip()
                    guard case .fixAt(let next) = state.next(now: clock.now, interval: interval) else { return nil }
                    deadline = next
                }
            }
        })
    }
}

/// What one stream of a `SimulatedFixSource` has done so far. A class behind a mutex because the
/// stream's producer closure must be `@Sendable`; only one consumer calls it at a time.
private final class StreamState<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What the producer does next.
    enum Step {
        /// Report the connection.
        case connect
        /// Sleep until the deadline, then report a fix.
        case fixAt(Instant)
    }

    private struct Progress {
        var receiver: SimulatedGPSReceiver
        var connected = false
        var lastDeadline: Instant?
    }

    private let progress: Mutex<Progress>

    init(receiver: SimulatedGPSReceiver) { progress = Mutex(Progress(receiver: receiver)) }

    /// The next step; the first fix is due at once, each later one `interval` after the last.
    func next(now: Instant, interval: Duration) -> Step {
        progress.withLock { progress in
            guard progress.connected else {
                progress.connected = true
                return .connect
            }
            let deadline = progress.lastDeadline.map { $0.advanced(by: interval) } ?? now
            progress.lastDeadline = deadline
            return .fixAt(deadline)
        }
    }

    /// Lets a second pass without a report.
    func skip() {
        progress.withLock { $0.receiver.skipEpoch() }
    }

    /// The receiver's next fix for `truth`.
    func fix(truth: SimulatedGPSReceiver.Truth) -> Fix {
        progress.withLock { $0.receiver.nextFix(truth: truth) }
    }
}
