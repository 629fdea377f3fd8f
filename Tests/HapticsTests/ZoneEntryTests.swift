import Guidance
import Testing
import TestSupport

@testable import Haptics

/// What the wearer feels as they turn into the zone and out of it, sample by sample at 50 Hz, on
/// a manual clock: the navigator's rule (``HapticRule``) makes each sample's cue, delivered
/// when it changes as the navigator delivers it, to the real player writing a recording
/// channel. (The core hands the player each sample's cue synchronously: `DaemonCore.sample`.)
@Suite("Entering and leaving the zone, on a manual clock", .timeLimit(.minutes(5)))
struct ZoneEntryTests {
    static let settings = MotorSettings()
    static let samplePeriod = Duration.milliseconds(20)

    /// The player on a manual clock, and the cue last delivered.
    final class Rig {
        let clock = ManualClock()
        let channel: RecordingPWMChannel
        let player: HapticPlayer<ManualClock>
        var cue: HapticCue?
        init() {
            channel = RecordingPWMChannel(periodNanoseconds: ZoneEntryTests.settings.periodNanoseconds, clock: clock)
            player = HapticPlayer(channel: channel, settings: ZoneEntryTests.settings, clock: clock)
        }

        /// One sample at `errorDegrees` from the bearing, then the time to the next sample,
        /// through the player's own deadlines. Returns the sample's instant.
        @discardableResult
        func sample(errorDegrees: Double) async -> Duration {
            let now = clock.now.offset
            let next = HapticRule().cue(alignmentErrorDegrees: errorDegrees)
            if next != cue {
                let entering = cue == nil
                cue = next
                player.deliver(cue: next)
                // The player answers on its own thread; the clock stands still until it has.
                if entering {
                    await until { self.channel.writes.contains { $0.at >= now && $0.nanoseconds > 0 } }
                } else if next == nil {
                    await until { self.player.duty == 0 }
                }
            }
            if cue == nil {
                clock.advance(by: ZoneEntryTests.samplePeriod)
            } else {
                await HapticPlayerTests.drive(clock, until: now + ZoneEntryTests.samplePeriod)
                if clock.now.offset < now + ZoneEntryTests.samplePeriod {
                    clock.advance(by: now + ZoneEntryTests.samplePeriod - clock.now.offset)
                }
            }
            return now
        }

        /// Waits in real time (up to 2 s) for the player's thread.
        func until(_ condition: () -> Bool) async {
            for _ in 0..<400 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
        }

        /// The instants the motor was switched on (a write above 0 after one of 0 or none).
        var risingEdges: [Duration] {
            var previous: UInt64 = 0
            return channel.writes.compactMap { write in
                defer { previous = write.nanoseconds }
                return previous == 0 && write.nanoseconds > 0 ? write.at : nil
            }
        }
    }

    @Test("a pulse starts at the sample that enters the zone; inside, the rhythm holds; leaving stops it at the sample that leaves")
    func entryRhythmAndExit() async throws {
        let rig = Rig()
        let player = rig.player
        let running = Task { try await player.run() }
        // Outside, turning in at 60 °/s (1.2° a sample) from 40° off.
        var error = 40.0
        var entered: Duration?
        while error > 0 {
            let at = await rig.sample(errorDegrees: error)
            if entered == nil, rig.cue != nil { entered = at }
            error -= 1.2
        }
        let entry = try #require(entered, "the turn entered the zone")
        #expect(rig.risingEdges.first == entry, "the first pulse started at \(String(describing: rig.risingEdges.first)), the entering sample was at \(entry)")
        // Held inside for 2 s with the heading swaying: each sample's cue differs, but a pulse
        // and its gap play out before the next cue is read.
        for k in 0..<100 { await rig.sample(errorDegrees: 3 * Double(k % 7) - 9) }
        let edges = rig.risingEdges
        #expect(edges.count >= 3, "pulses while inside: \(edges)")
        let shortest = zip(edges.dropFirst(), edges).map { $0 - $1 }.min() ?? .zero
        #expect(shortest >= .milliseconds(150), "pulses started \(shortest) apart: the rhythm restarted")
        // Turning out at 60 °/s: the motor is off at the sample that leaves.
        var left: Duration?
        error = 0
        while error < 40 {
            let at = await rig.sample(errorDegrees: error)
            if left == nil, rig.cue == nil { left = at }
            error += 1.2
        }
        let exit = try #require(left)
        #expect(rig.player.duty == 0)
        #expect(!rig.channel.writes.contains { $0.at > exit && $0.nanoseconds > 0 }, "the motor ran after the leaving sample")
        if let last = rig.channel.writes.last { #expect(last.nanoseconds == 0 && last.at <= exit) }
        running.cancel()
        try await running.value
    }

    @Test("leaving in a gap and turning back in before it would have ended starts a pulse at once")
    func reentryInTheGap() async throws {
        let rig = Rig()
        let player = rig.player
        let running = Task { try await player.run() }
        let pulse = ERMRenderer(settings: Self.settings).pulse(for: try #require(HapticRule().cue(alignmentErrorDegrees: 10)))
        let active = try #require(pulse.steps.last).offset
        try #require(pulse.length - active >= .milliseconds(100), "a gap to leave in")
        let start = await rig.sample(errorDegrees: 10)
        // Inside until the pulse has ended and its gap begun; then out for two samples.
        while rig.clock.now.offset < start + active { await rig.sample(errorDegrees: 10) }
        #expect(rig.player.duty == 0, "in the gap")
        await rig.sample(errorDegrees: 30)
        await rig.sample(errorDegrees: 30)
        let back = await rig.sample(errorDegrees: 10)
        try #require(back < start + pulse.length, "back before the gap would have ended")
        #expect(rig.risingEdges.last == back, "the pulse on coming back started at \(String(describing: rig.risingEdges.last)), not at \(back)")
        running.cancel()
        try await running.value
    }
}
