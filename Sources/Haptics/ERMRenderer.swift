import Guidance

/// Turns cues and patterns into motor drive for an eccentric-rotating-mass motor.
///
/// An ERM cannot change frequency apart from strength (both follow the voltage), so sharpness is
/// rendered in time, as reference/haptics.md §4.3 proposes: a sharp cue is a short pulse that
/// starts with a kick at full drive and stops abruptly; a soft cue is a long pulse that ramps up
/// from the start duty and down to the floor. Intensity sets the hold duty between the floor and
/// the rated duty, and the density of pulses (shorter gaps), since a few duty steps alone are
/// hard to tell apart on the skin. Every pulse starts at or above the start duty: with a kick,
/// a ramp that begins there, or a short start assist when the hold is below it.
///
/// Pure: no clock, no IO. The player repeats the timelines.
public struct ERMRenderer: Sendable {
    /// The motor.
    public let settings: MotorSettings

    /// A renderer for a motor.
    public init(settings: MotorSettings) { self.settings = settings }

    /// One pulse and the gap after it, for a cue.
    public func pulse(for cue: HapticCue) -> DutyTimeline {
        var timeline = DutyTimeline()
        pulse(for: cue, into: &timeline)
        return timeline
    }

    /// The most steps a cue's pulse or heartbeat can take: a kick, a start assist or a ramp up,
    /// the hold, a ramp down, and the stop.
    public var maximumPulseSteps: Int {
        let step = max(settings.rampStep, .milliseconds(1))
        return Int(settings.longestRampUp / step) + Int(settings.longestRampDown / step) + 4
    }

    /// ``pulse(for:)`` into `timeline`, reusing its storage: the player renders every pulse this
    /// way into a timeline with room for ``maximumPulseSteps``, so guidance allocates nothing.
    public func pulse(for cue: HapticCue, into timeline: inout DutyTimeline) {
        shape(cue, into: &timeline)
        let gap = max(
            lerp(settings.weakGapLength, settings.strongGapLength, cue.intensity),
            settings.stopLength + .milliseconds(50))
        timeline.length = onLength(cue) + gap
    }

    /// The same pulse, but alone in a heartbeat interval: steady reassurance that does not numb
    /// the skin after a long time on target.
    public func heartbeat(for cue: HapticCue) -> DutyTimeline {
        var timeline = DutyTimeline()
        heartbeat(for: cue, into: &timeline)
        return timeline
    }

    /// ``heartbeat(for:)`` into `timeline`, reusing its storage.
    public func heartbeat(for cue: HapticCue, into timeline: inout DutyTimeline) {
        shape(cue, into: &timeline)
        timeline.length = max(settings.heartbeatInterval, onLength(cue) + settings.stopLength + .milliseconds(50))
    }

    /// A whole pattern.
    public func timeline(for pattern: HapticPattern) -> DutyTimeline {
        var timeline = DutyTimeline()
        for pulse in pattern.pulses {
            var one = DutyTimeline()
            let hold = clampDuty(settings.floorDuty + (settings.maximumDuty - settings.floorDuty) * pulse.level)
            // Patterns are short and must be felt at once: always kick, whatever their level.
            let kick = min(settings.kickLength, pulse.on)
            one.set(clampDuty(settings.maximumDuty), at: .zero)
            one.set(max(hold, clampDuty(settings.startDuty)), at: kick)
            one.set(0, at: pulse.on)
            one.length = pulse.on + pulse.off
            timeline.append(one)
        }
        return timeline
    }

    // MARK: - Pulse shape

    private func onLength(_ cue: HapticCue) -> Duration {
        lerp(settings.softPulseLength, settings.sharpPulseLength, cue.sharpness)
    }

    /// The driven part of a pulse: lead (kick, start assist or ramp up), hold, ramp down, off.
    private func shape(_ cue: HapticCue, into timeline: inout DutyTimeline) {
        timeline.clear()
        let onLength = onLength(cue)
        let hold = clampDuty(settings.floorDuty + (settings.ratedDuty - settings.floorDuty) * cue.intensity)
        let start = clampDuty(settings.startDuty)
        let step = max(settings.rampStep, .milliseconds(1))
        var t = Duration.zero

        let kick = min(settings.kickLength * cue.sharpness, onLength / 2)
        if kick >= .milliseconds(1) {
            timeline.set(clampDuty(settings.maximumDuty), at: t)
            t += kick
        }
        if hold < start {
            // Too weak to start from rest on its own: hold the start duty for what the kick
            // has not already covered.
            let assist = settings.startAssistLength - (t > .zero ? t : .zero)
            if assist > .zero {
                timeline.set(start, at: t)
                t += assist
            }
        } else if t == .zero {
            // Soft start: ramp from the start duty up to the hold.
            let rampSteps = Int(lerp(settings.longestRampUp, .zero, cue.sharpness) / step)
            for k in 0..<rampSteps {
                timeline.set(start + (hold - start) * Double(k) / Double(rampSteps), at: t)
                t += step
            }
        }
        timeline.set(hold, at: t)
        // Soft end: ramp down towards the floor; sharp pulses stop at once.
        let rampDownSteps = Int(lerp(settings.longestRampDown, .zero, cue.sharpness) / step)
        let rampDownStart = onLength - step * rampDownSteps
        if rampDownSteps > 0 && rampDownStart > t {
            let floor = min(clampDuty(settings.floorDuty), hold)
            for k in 1...rampDownSteps {
                timeline.set(hold - (hold - floor) * Double(k) / Double(rampDownSteps + 1),
                             at: rampDownStart + step * (k - 1))
            }
        }
        timeline.set(0, at: max(onLength, t))
    }

    private func clampDuty(_ duty: Double) -> Double {
        min(max(duty, 0), min(settings.maximumDuty, 1))
    }

    private func lerp(_ from: Duration, _ to: Duration, _ fraction: Double) -> Duration {
        from + (to - from) * fraction
    }
}
