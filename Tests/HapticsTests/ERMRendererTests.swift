import Guidance
import Testing

@testable import Haptics

@Suite("Rendering cues and patterns on an ERM", .timeLimit(.minutes(5)))
struct ERMRendererTests {
    static let settings = MotorSettings()
    static let renderer = ERMRenderer(settings: settings)
    static let grid = stride(from: 0.0, through: 1.0, by: 0.05).map { $0 }

    static func pulseStarts(_ timeline: DutyTimeline) -> [DutyTimeline.Step] {
        timeline.steps.enumerated().filter { index, step in
            step.duty > 0 && (index == 0 || timeline.steps[index - 1].duty == 0)
        }.map(\.element)
    }

    @Test("duty stays within the maximum; every pulse starts at or above the start duty; it ends at 0")
    func limits() {
        var timelines = Self.grid.flatMap { i in
            Self.grid.flatMap { s in
                let cue = HapticCue(intensity: i, sharpness: s)
                return [Self.renderer.pulse(for: cue), Self.renderer.heartbeat(for: cue)]
            }
        }
        timelines += HapticPattern.named.map { Self.renderer.timeline(for: $0) }
        for timeline in timelines {
            #expect(timeline.steps.allSatisfy { $0.duty >= 0 && $0.duty <= Self.settings.maximumDuty })
            #expect(Self.pulseStarts(timeline).allSatisfy { $0.duty >= Self.settings.startDuty }, "\(timeline.steps)")
            #expect(timeline.steps.last?.duty == 0)
            #expect(zip(timeline.steps, timeline.steps.dropFirst()).allSatisfy { $0.offset < $1.offset })
            #expect(timeline.steps.last!.offset <= timeline.length)
        }
    }

    @Test("mean duty rises with intensity at every sharpness")
    func meanDutyRisesWithIntensity() {
        for s in Self.grid {
            var previous = -1.0
            for i in stride(from: 0.0, through: 1.0, by: 0.01) {
                let mean = Self.renderer.pulse(for: HapticCue(intensity: i, sharpness: s)).meanDuty
                #expect(mean > previous, "intensity \(i) sharpness \(s)")
                previous = mean
            }
        }
    }

    @Test("pulse on-time falls with sharpness at every intensity")
    func onTimeFallsWithSharpness() {
        for i in Self.grid {
            var previous = Duration.seconds(10)
            for s in stride(from: 0.0, through: 1.0, by: 0.01) {
                let rhythm = Self.renderer.pulse(for: HapticCue(intensity: i, sharpness: s)).rhythm
                #expect(rhythm.count == 1)
                #expect(rhythm[0].on < previous, "intensity \(i) sharpness \(s)")
                previous = rhythm[0].on
            }
        }
    }

    @Test("sharp pulses kick at full duty; soft pulses ramp up and down")
    func shape() {
        let sharp = Self.renderer.pulse(for: HapticCue(intensity: 0.1, sharpness: 0.8))
        #expect(sharp.steps.first?.duty == Self.settings.maximumDuty)
        #expect(sharp.steps.first?.offset == .zero)
        let soft = Self.renderer.pulse(for: HapticCue(intensity: 1, sharpness: 0))
        #expect(soft.steps.first?.duty == Self.settings.startDuty)
        let rampSteps = Int(Self.settings.longestRampUp / Self.settings.rampStep + Self.settings.longestRampDown / Self.settings.rampStep)
        #expect(soft.steps.count >= rampSteps, "ramps are made of steps of \(Self.settings.rampStep)")
        #expect(soft.rhythm[0].on == .milliseconds(350) && soft.rhythm[0].off == .milliseconds(150))
    }

    /// The player reserves this many steps once; a pulse that needed more would allocate while
    /// guiding.
    @Test("no cue's pulse or heartbeat has more steps than maximumPulseSteps, whatever the motor settings")
    func pulseStepBound() {
        var fineRamps = MotorSettings()
        fineRamps.rampStep = .milliseconds(1)
        var weakStart = MotorSettings()
        weakStart.startDuty = 0.9
        // With a start duty above every hold, pulses take the start assist and never ramp up, so
        // the bound is only checked for tightness where they ramp.
        for (settings, ramps) in [(Self.settings, true), (fineRamps, true), (weakStart, false)] {
            let renderer = ERMRenderer(settings: settings)
            var most = 0
            for intensity in Self.grid {
                for sharpness in Self.grid {
                    let cue = HapticCue(intensity: intensity, sharpness: sharpness)
                    most = max(most, renderer.pulse(for: cue).steps.count, renderer.heartbeat(for: cue).steps.count)
                }
            }
            #expect(most <= renderer.maximumPulseSteps, "\(most) steps, \(renderer.maximumPulseSteps) reserved")
            if ramps {
                #expect(most >= renderer.maximumPulseSteps - 4, "the bound is not loose: \(most) of \(renderer.maximumPulseSteps)")
            }
        }
    }

    @Test("rendering into a reused timeline gives what a fresh one does, whatever it held before")
    func reusedTimeline() {
        var reused = Self.renderer.timeline(for: .headingUnreliable)
        for (intensity, sharpness) in [(1.0, 0.0), (0.2, 0.9), (0.6, 0.4), (0.1, 0.0)] {
            let cue = HapticCue(intensity: intensity, sharpness: sharpness)
            Self.renderer.pulse(for: cue, into: &reused)
            #expect(reused == Self.renderer.pulse(for: cue), "pulse \(intensity) \(sharpness)")
            Self.renderer.heartbeat(for: cue, into: &reused)
            #expect(reused == Self.renderer.heartbeat(for: cue), "heartbeat \(intensity) \(sharpness)")
        }
    }

    @Test("the heartbeat drives at least four times less than steady guidance on target")
    func heartbeat() {
        let onTarget = HapticCue(intensity: 1, sharpness: 0, isOnTarget: true)
        let active = Self.renderer.pulse(for: onTarget).meanDuty
        let resting = Self.renderer.heartbeat(for: onTarget).meanDuty
        #expect(active >= 4 * resting, "active \(active), heartbeat \(resting)")
    }

    @Test("no two patterns share a rhythm, and none is the guidance pulse's")
    func patternsDistinct() {
        func key(_ timeline: DutyTimeline) -> [Int64] {
            timeline.rhythm.flatMap { [$0.on.components.attoseconds / 1_000_000_000_000_000 + $0.on.components.seconds * 1000,
                                       $0.off.components.attoseconds / 1_000_000_000_000_000 + $0.off.components.seconds * 1000] }
        }
        let keys = HapticPattern.named.map { key(Self.renderer.timeline(for: $0)) }
        #expect(Set(keys).count == HapticPattern.named.count, "\(keys)")
        for pattern in HapticPattern.named {
            #expect(Self.renderer.timeline(for: pattern).rhythm.count == pattern.pulses.count)
        }
    }
}
