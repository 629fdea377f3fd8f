import Guidance
import Synchronization
import SystemSupport

/// Drives the motor: repeats the pulse of the current cue, falls back to a heartbeat after a
/// long time on target, plays patterns ahead of the cue, and sleeps between edges (it never
/// polls). Whatever ends `run()` (cancellation, an error), the motor is left off.
///
/// A channel that fails (a write refused, or a read-back about once a second that finds the
/// channel gone or driven by someone else) does not end the player: it switches the motor off
/// as far as it can, reports the fault (``fault``, and once to the `faults` callback), and sets
/// the channel up again after 1 s, then 2, 4 … 30 s, until it works; the cue carries on from
/// there.
///
/// Cues and patterns arrive in a mailbox that any thread can post to without waiting
/// (``deliver(cue:)``, ``deliver(pattern:)``): the sampling thread changes the cue up to 50
/// times a second, and that must neither hop onto this actor nor wake the player, which reads
/// the newest cue when its current pulse ends.
///
/// The edges are written from a thread of the player's own that sleeps in a ``ThreadAlarm``
/// between them: one wakeup per edge and no allocation, where a task sleeping on the clock
/// allocates on every sleep and wakes two threads.
public actor HapticPlayer<C: Clock> where C.Duration == Duration {
    private let channel: any PWMChannel
    private let renderer: ERMRenderer
    private let clock: C
    private let mailbox: Mutex<HapticMailbox>
    /// When the player was made: the mailbox keeps times as durations since then.
    private let origin: C.Instant
    private let alarm: ThreadAlarm<C>
    private let faults: @Sendable (PWMError?) -> Void

    /// How often the channel is read back while the motor is in use.
    static var verifyInterval: Duration { .seconds(1) }
    /// The first wait before setting a failed channel up again; it doubles up to ``maximumRetryWait``.
    static var firstRetryWait: Duration { .seconds(1) }
    /// The longest wait between attempts to set a failed channel up again.
    static var maximumRetryWait: Duration { .seconds(30) }

    /// The duty last written to the motor, 0…1 (0 before the first write and after shutdown).
    public nonisolated var duty: Double { mailbox.withLock { $0.duty } }
    /// The pattern playing now, if one is.
    public nonisolated var pattern: HapticPattern? { mailbox.withLock { $0.pattern } }
    /// Why the motor cannot be driven now, while the channel is being set up again; nil when it
    /// works.
    public nonisolated var fault: PWMError? { mailbox.withLock { $0.fault } }

    /// A player for a channel; nothing is driven until `run()`.
    ///
    /// - Parameter faults: Told on the player's thread when the channel fails (the error) and
    ///   when it works again (nil): once per spell, for the log.
    public init(
        channel: any PWMChannel, settings: MotorSettings, clock: C,
        faults: @escaping @Sendable (PWMError?) -> Void = { _ in }
    ) {
        self.channel = channel
        self.faults = faults
        renderer = ERMRenderer(settings: settings)
        self.clock = clock
        origin = clock.now
        mailbox = Mutex(HapticMailbox())
        alarm = ThreadAlarm(clock: clock)
    }

    /// What to feel from the next pulse on, from any thread, without waiting. A pulse under way
    /// is finished first, unless the cue is nil (silence): then the motor stops at once. The
    /// player is woken only when it has nothing to do (no cue, no pattern) or the motor must stop
    /// at once.
    public nonisolated func deliver(cue newCue: HapticCue?) {
        let wake = mailbox.withLock { mailbox in
            let wasSilent = mailbox.cue == nil
            if newCue?.isOnTarget == true {
                // The clock is read only when the cue comes on target, not on every delivery
                // (50 a second from the sampling thread); reading it under the lock is brief.
                if mailbox.onTargetSince == nil { mailbox.onTargetSince = origin.duration(to: clock.now) }
            } else {
                mailbox.onTargetSince = nil
            }
            mailbox.cue = newCue
            if newCue == nil && !wasSilent { mailbox.cutPulse = true }
            return wasSilent != (newCue == nil)
        }
        if wake { alarm.wake() }
    }

    /// Plays a pattern ahead of the cue, from any thread, without waiting: a cue pulse under way
    /// stops at once, a pattern under way is finished first. At most one pattern waits: a new
    /// one replaces it, so no stream of requests can keep the motor going for longer than the
    /// pattern playing and the one after it.
    public nonisolated func deliver(pattern: HapticPattern) {
        mailbox.withLock { mailbox in
            mailbox.queued = pattern
            mailbox.cutPulse = true
        }
        alarm.wake()
    }

    /// Stops the pattern playing at once and drops the one waiting, from any thread, without
    /// waiting: for `clear`, `mute on` and whatever else means "stop buzzing now". The cue, if
    /// there is one, carries on.
    public nonisolated func silence() {
        mailbox.withLock { mailbox in
            mailbox.queued = nil
            mailbox.cutPattern = true
        }
        alarm.wake()
    }

    /// Whether the player's thread waits for a cue or a pattern, with nothing to play and no
    /// deadline (no polling): how a test knows the thread started and went idle.
    public nonisolated var isIdle: Bool { alarm.isWaitingForWake }

    /// Whether a pattern is playing or waiting.
    public nonisolated var isPlayingPattern: Bool { mailbox.withLock { $0.pattern != nil || $0.queued != nil } }

    /// Drives the motor from the player's thread until the task is cancelled, then switches it
    /// off.
    /// - Throws: the `PWMError` of the final switch-off, or `Errno` when the thread cannot be
    ///   started.
    public func run() async throws {
        let failure = await withTaskCancellationHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<(any Error)?, Never>) in
                do throws(Errno) {
                    try BlockingThread.start(name: "motor") { finished.resume(returning: self.drive()) }
                } catch {
                    finished.resume(returning: self.switchOff(after: error))
                }
            }
        } onCancel: {
            alarm.stop()
        }
        if let failure { throw failure }
    }

    /// The player's thread: plays until stopped, then switches the motor off.
    /// - Returns: the shutdown's error, if any.
    private nonisolated func drive() -> (any Error)? {
        loop()
        return switchOff(after: nil)
    }

    /// Shuts the channel down; returns `failure`, or the shutdown's own error when there was none.
    private nonisolated func switchOff(after failure: (any Error)?) -> (any Error)? {
        mailbox.withLock {
            $0.duty = 0
            $0.pattern = nil
        }
        do throws(PWMError) {
            try channel.shutDown()
            return failure
        } catch {
            return failure ?? error
        }
    }

    private nonisolated func loop() {
        // Every cue pulse is rendered into this one timeline, sized for the longest pulse up
        // front, so guiding allocates nothing (a sharper or softer cue would otherwise grow it).
        var cuePulse = DutyTimeline()
        cuePulse.reserveCapacity(renderer.maximumPulseSteps)
        var lastVerified = clock.now
        while !alarm.isStopped {
            do throws(PWMError) {
                try playNext(into: &cuePulse, lastVerified: &lastVerified)
            } catch {
                recover(from: error)
                lastVerified = clock.now
            }
        }
    }

    /// Plays the next pattern or cue pulse, or waits for one; reads the channel back first when
    /// the motor is in use and the last check is ``verifyInterval`` old.
    private nonisolated func playNext(into cuePulse: inout DutyTimeline, lastVerified: inout C.Instant) throws(PWMError) {
        let (next, cue, onTargetSince) = mailbox.withLock { mailbox in
            let next = mailbox.queued
            mailbox.queued = nil
            mailbox.pattern = next
            // A cue pulse or a pattern starts now: only what comes from here on cuts it.
            mailbox.cutPulse = false
            mailbox.cutPattern = false
            return (next, mailbox.cue, mailbox.onTargetSince)
        }
        if next != nil || cue != nil, lastVerified.duration(to: clock.now) >= Self.verifyInterval {
            lastVerified = clock.now
            try channel.verify()
        }
        if let next {
            try perform(renderer.timeline(for: next), isPattern: true)
            mailbox.withLock { $0.pattern = nil }
        } else if let cue {
            let settled =
                onTargetSince.map { origin.duration(to: clock.now) - $0 >= renderer.settings.heartbeatAfter } ?? false
            if settled {
                renderer.heartbeat(for: cue, into: &cuePulse)
            } else {
                renderer.pulse(for: cue, into: &cuePulse)
            }
            try perform(cuePulse, isPattern: false)
        } else {
            _ = alarm.wait(until: nil)
        }
    }

    /// After a channel failure: the motor off as far as it goes, the fault reported, and the
    /// channel set up again with growing waits until it works or the player stops. A pattern
    /// asked for meanwhile is dropped: a warning played late would mislead.
    private nonisolated func recover(from error: PWMError) {
        mailbox.withLock { mailbox in
            mailbox.fault = error
            mailbox.duty = 0
            mailbox.pattern = nil
            mailbox.queued = nil
        }
        faults(error)
        // Best effort: the write that failed has already tried the same.
        try? channel.setDuty(0)
        var backoff = Backoff(first: Self.firstRetryWait, longest: Self.maximumRetryWait)
        while !alarm.isStopped {
            let deadline = clock.now.advanced(by: backoff.failed())
            // Woken early by a new cue or pattern: keep waiting, unless stopping.
            while alarm.wait(until: deadline), !alarm.isStopped {}
            if alarm.isStopped { return }
            do throws(PWMError) {
                try channel.reopen()
                try channel.verify()
            } catch {
                mailbox.withLock { $0.fault = error }
                continue
            }
            mailbox.withLock { mailbox in
                mailbox.fault = nil
                mailbox.queued = nil
            }
            faults(nil)
            return
        }
    }

    /// Writes each step at its time and waits out the rest of the timeline. One that is cut
    /// short (a cue pulse by a silence or a pattern, a pattern by `silence()`) leaves the motor
    /// off; a stop leaves it as it is, for the shutdown.
    private nonisolated func perform(_ timeline: DutyTimeline, isPattern: Bool) throws(PWMError) {
        let start = clock.now
        for step in timeline.steps {
            guard try wait(until: start.advanced(by: step.offset), isPattern: isPattern) else { return }
            try channel.setDuty(step.duty)
            mailbox.withLock { $0.duty = step.duty }
        }
        _ = try wait(until: start.advanced(by: timeline.length), isPattern: isPattern)
    }

    /// Waits for `deadline`; false when the player is stopping, or when what plays was cut short
    /// (the motor is then off; it is written only if it was running).
    private nonisolated func wait(until deadline: C.Instant, isPattern: Bool) throws(PWMError) -> Bool {
        while alarm.wait(until: deadline) {
            if alarm.isStopped { return false }
            let (cut, running) = mailbox.withLock { mailbox in
                let cut = isPattern ? mailbox.cutPattern : mailbox.cutPulse
                if isPattern { mailbox.cutPattern = false } else { mailbox.cutPulse = false }
                return (cut, mailbox.duty != 0)
            }
            guard cut else { continue }
            if running {
                try channel.setDuty(0)
                mailbox.withLock { $0.duty = 0 }
            }
            return false
        }
        return true
    }
}

/// What the player is asked to do, shared with the threads that ask, and what it is doing.
///
/// Outside the generic player, and with times as durations rather than the clock's instants:
/// a type nested in a generic one is generic too, and every access from the sampling thread
/// (50 a second) then looked its metadata up at run time (about 2 % of the guiding daemon's CPU).
private struct HapticMailbox {
    var cue: HapticCue?
    /// The pattern to play next: one at most, the latest asked for.
    var queued: HapticPattern?
    /// Since when the cue has been on target, as a duration since the player's origin.
    var onTargetSince: Duration?
    /// Whether the cue pulse under way is to stop at once: the cue fell silent or a pattern
    /// was queued (a warning must not wait, and a buzz that no longer means "this way" must
    /// stop).
    var cutPulse = false
    /// Whether the pattern under way is to stop at once (`silence()`).
    var cutPattern = false
    /// The duty last written to the motor.
    var duty = 0.0
    /// The pattern playing now.
    var pattern: HapticPattern?
    /// Why the channel cannot be driven, while it is being set up again.
    var fault: PWMError?
}
