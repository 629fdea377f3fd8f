import SystemSupport

/// A stretch of motor drive: duty changes at offsets from its start, then silence until
/// `length`. The player writes each step at its time and sleeps in between, so the motor's
/// edges are scheduled, never polled.
public struct DutyTimeline: Sendable, Hashable {
    /// A new duty from `offset` on.
    public struct Step: Sendable, Hashable {
        /// From the start of the timeline.
        public var offset: Duration
        /// Fraction of the PWM period, 0…1.
        public var duty: Double
    }

    /// The duty changes, in time order; the last one is 0.
    public private(set) var steps: [Step] = []
    /// Total length including the silence after the last step.
    public var length: Duration = .zero

    /// Appends a change at `offset`, merging it with a change at the same time and dropping it
    /// when it repeats the current duty.
    mutating func set(_ duty: Double, at offset: Duration) {
        if let last = steps.last {
            if last.offset == offset {
                steps[steps.count - 1].duty = duty
                if steps.count >= 2 && steps[steps.count - 2].duty == duty { steps.removeLast() }
                return
            }
            if last.duty == duty { return }
        }
        steps.append(Step(offset: offset, duty: duty))
    }

    /// Makes room for `count` steps, so that rendering up to that many allocates nothing.
    mutating func reserveCapacity(_ count: Int) { steps.reserveCapacity(count) }

    /// Empties the timeline, keeping its storage for the next pulse.
    mutating func clear() {
        steps.removeAll(keepingCapacity: true)
        length = .zero
    }

    /// Appends `other` after this timeline's end.
    mutating func append(_ other: DutyTimeline) {
        for step in other.steps { set(step.duty, at: length + step.offset) }
        length += other.length
    }

    /// The duty at `offset` (0 before the first step).
    public func duty(at offset: Duration) -> Double {
        steps.last(where: { $0.offset <= offset })?.duty ?? 0
    }

    /// Mean duty over the whole length: the motor's average drive, and roughly its power.
    public var meanDuty: Double {
        guard length > .zero else { return 0 }
        var energy = 0.0
        for (index, step) in steps.enumerated() {
            let end = index + 1 < steps.count ? steps[index + 1].offset : length
            energy += step.duty * (end - step.offset).seconds
        }
        return energy / length.seconds
    }

    /// The driven spans and the gaps between them, in order: the rhythm a wearer feels.
    public var rhythm: [(on: Duration, off: Duration)] {
        var pulses: [(start: Duration, end: Duration)] = []
        var start: Duration?
        for step in steps {
            if step.duty > 0, start == nil { start = step.offset }
            if step.duty == 0, let pulseStart = start {
                pulses.append((pulseStart, step.offset))
                start = nil
            }
        }
        return pulses.indices.map { index in
            let next = index + 1 < pulses.count ? pulses[index + 1].start : length
            return (pulses[index].end - pulses[index].start, next - pulses[index].end)
        }
    }
}
