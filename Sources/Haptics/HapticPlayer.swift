import Guidance
import Synchronization

/// Drives the motor: repeats the pulse of the current cue, falls back to a heartbeat after a
/// long time on target, plays patterns ahead of the cue, and sleeps between edges (it never
/// polls). Whatever ends `run()` (cancellation, an error), the motor is left off.
///
/// Cues and patterns arrive in a mailbox that any thread can post to without waiting
/// (``deliver(cue:)``, ``deliver(pattern:)``): the sampling thread changes the cue up to 50
/// times a second, and that must neither hop onto this actor nor wake the player, which reads
/// the newest cue when its current pulse ends.
public actor HapticPlayer<C: Clock> where C.Duration == Duration {
    /// What the player is asked to do, shared with the threads that ask.
    private struct Mailbox {
        var cue: HapticCue?
        var queue: [HapticPattern] = []
        var onTargetSince: C.Instant?
        /// The cue pulse under way. It is cut short when the cue falls silent or a pattern is
        /// queued: a warning must not wait, and a buzz that no longer means "this way" must stop.
        var cuePulse: Task<Void, any Error>?
    }

    /// Patterns queued at once before the queue's storage grows (it is reserved up front so
    /// that queueing a pattern does not allocate).
    private static var queueCapacity: Int { 8 }

    private let channel: any PWMChannel
    private let renderer: ERMRenderer
    private let clock: C
    private let mailbox: Mutex<Mailbox>
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    /// The duty last written to the motor, 0…1 (0 before the first write and after shutdown).
    public private(set) var duty = 0.0
    /// The pattern playing now, if one is.
    public private(set) var pattern: HapticPattern?

    /// A player for a channel; nothing is driven until `run()`.
    public init(channel: any PWMChannel, settings: MotorSettings, clock: C) {
        self.channel = channel
        renderer = ERMRenderer(settings: settings)
        self.clock = clock
        var mailbox = Mailbox()
        mailbox.queue.reserveCapacity(Self.queueCapacity)
        self.mailbox = Mutex(mailbox)
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// What to feel from the next pulse on. A pulse under way is finished first, unless the cue
    /// is nil (silence): then the motor stops at once.
    public func setCue(_ newCue: HapticCue?) { deliver(cue: newCue) }

    /// Plays a pattern ahead of the cue: a cue pulse under way stops at once, a pattern under
    /// way is finished first.
    public func play(_ pattern: HapticPattern) { deliver(pattern: pattern) }

    /// ``setCue(_:)`` from any thread, without waiting. The player is woken only when it has
    /// nothing to do (no cue, no pattern) or the motor must stop at once (a nil cue).
    public nonisolated func deliver(cue newCue: HapticCue?) {
        let now = clock.now
        let wake = mailbox.withLock { mailbox in
            let wasSilent = mailbox.cue == nil
            if newCue?.isOnTarget == true {
                if mailbox.onTargetSince == nil { mailbox.onTargetSince = now }
            } else {
                mailbox.onTargetSince = nil
            }
            mailbox.cue = newCue
            if newCue == nil { mailbox.cuePulse?.cancel() }
            return wasSilent != (newCue == nil)
        }
        if wake { changed.yield() }
    }

    /// ``play(_:)`` from any thread, without waiting.
    public nonisolated func deliver(pattern: HapticPattern) {
        mailbox.withLock { mailbox in
            mailbox.queue.append(pattern)
            mailbox.cuePulse?.cancel()
        }
        changed.yield()
    }

    /// Drives the motor until the task is cancelled, then switches it off.
    /// - Throws: the first `PWMError` (the motor has then been switched off as far as possible).
    public func run() async throws {
        var failure: (any Error)?
        do {
            try await loop()
        } catch is CancellationError {
        } catch {
            failure = error
        }
        do {
            duty = 0
            try channel.shutDown()
        } catch {
            failure = failure ?? error
        }
        if let failure { throw failure }
    }

    private func loop() async throws {
        var wakeups = changes.makeAsyncIterator()
        while !Task.isCancelled {
            let (next, cue, onTargetSince) = mailbox.withLock { mailbox in
                (mailbox.queue.isEmpty ? nil : mailbox.queue.removeFirst(), mailbox.cue, mailbox.onTargetSince)
            }
            if let next {
                pattern = next
                defer { pattern = nil }
                try await perform(renderer.timeline(for: next))
            } else if let cue {
                let settled = onTargetSince.map { $0.duration(to: clock.now) >= renderer.settings.heartbeatAfter } ?? false
                try await performInterruptibly(settled ? renderer.heartbeat(for: cue) : renderer.pulse(for: cue))
            } else if await wakeups.next() == nil {
                return
            }
        }
    }

    /// Performs a cue pulse as ``cuePulse``, so that `setCue(nil)` and `play(_:)` can cut it
    /// short; a cut pulse leaves the motor off.
    private func performInterruptibly(_ timeline: DutyTimeline) async throws {
        let pulse = Task { try await perform(timeline) }
        // A silence or a pattern that came while the pulse was being set up cuts it at once.
        let cutAlready = mailbox.withLock { mailbox in
            mailbox.cuePulse = pulse
            return mailbox.cue == nil || !mailbox.queue.isEmpty
        }
        if cutAlready { pulse.cancel() }
        defer { mailbox.withLock { $0.cuePulse = nil } }
        do {
            try await withTaskCancellationHandler {
                try await pulse.value
            } onCancel: {
                pulse.cancel()
            }
        } catch is CancellationError where !Task.isCancelled {
            try channel.setDuty(0)
            duty = 0
        }
    }

    /// Writes each step at its time and waits out the rest of the timeline.
    private func perform(_ timeline: DutyTimeline) async throws {
        let start = clock.now
        for step in timeline.steps {
            try await clock.sleep(until: start.advanced(by: step.offset), tolerance: nil)
            try channel.setDuty(step.duty)
            duty = step.duty
        }
        try await clock.sleep(until: start.advanced(by: timeline.length), tolerance: nil)
    }
}
