import Core
import Synchronization
import SystemSupport

/// The trail's own thread: it carries out the appends the core asks for (a `write` and an
/// `fsync`, tens of milliseconds on an SD card), so that neither the GPS thread that delivered
/// the fix nor the sampling thread ever waits for the card.
///
/// The mailbox holds one append: the core asks for the next only after the last was reported
/// (``TrailLog``), so nothing queues up.
public final class TrailService: Sendable {
    private let mailbox = Mutex<TrailLog.Append?>(nil)
    private let alarm = ThreadAlarm(clock: ContinuousClock())

    /// A service with nothing to do yet.
    public init() {}

    /// Hands an append to the thread, from any thread, without waiting.
    public func submit(_ append: TrailLog.Append) {
        mailbox.withLock { $0 = append }
        alarm.wake()
    }

    /// Runs the thread until the task is cancelled, carrying out each append with `perform`
    /// (which reports back to the core); one still waiting at the end is carried out first.
    public func run(_ perform: @escaping @Sendable (TrailLog.Append) -> Void) async throws {
        try await BlockingThread.run(name: "trail", onCancel: { self.alarm.stop() }) {
            while true {
                let stopped = self.alarm.isStopped
                if let append = self.mailbox.withLock({ mailbox in defer { mailbox = nil }; return mailbox }) {
                    perform(append)
                }
                if stopped { return }
                _ = self.alarm.wait(until: nil)
            }
        }
    }
}
