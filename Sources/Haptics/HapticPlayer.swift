import Guidance

/// Drives the motor: repeats the pulse of the current cue, falls back to a heartbeat after a
/// long time on target, plays patterns ahead of the cue, and sleeps between edges (it never
/// polls). Whatever ends `run()` (cancellation, an error), the motor is left off.
public actor HapticPlayer<C: Clock> where C.Duration == Duration {
    private let channel: any PWMChannel
    private let renderer: ERMRenderer
    private let clock: C
    private var cue: HapticCue?
    private var queue: [HapticPattern] = []
    private var onTargetSince: C.Instant?
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    /// The duty last written to the motor, 0…1 (0 before the first write and after shutdown).
    public private(set) var duty = 0.0
    /// The pattern playing now, if one is.
    public private(set) var pattern: HapticPattern?
    /// The cue pulse under way. It is cut short when the cue falls silent or a pattern is
    /// queued: a warning must not wait, and a buzz that no longer means "this way" must stop.
    private var cuePulse: Task<Void, any Error>?

    /// A player for a channel; nothing is driven until `run()`.
    public init(channel: any PWMChannel, settings: MotorSettings, clock: C) {
        self.channel = channel
        renderer = ERMRenderer(settings: settings)
        self.clock = clock
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// What to feel from the next pulse on. A pulse under way is finished first, unless the cue
    /// is nil (silence): then the motor stops at once.
    public func setCue(_ newCue: HapticCue?) {
        if newCue?.isOnTarget == true {
            if onTargetSince == nil { onTargetSince = clock.now }
        } else {
            onTargetSince = nil
        }
        cue = newCue
        if newCue == nil { cuePulse?.cancel() }
        changed.yield()
    }

    /// Plays a pattern ahead of the cue: a cue pulse under way stops at once, a pattern under
    /// way is finished first.
    public func play(_ pattern: HapticPattern) {
        queue.append(pattern)
        cuePulse?.cancel()
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
            if !queue.isEmpty {
                let next = queue.removeFirst()
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
        cuePulse = pulse
        defer { cuePulse = nil }
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
