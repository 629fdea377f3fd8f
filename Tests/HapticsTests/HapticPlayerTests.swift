import Guidance
import Synchronization
import Testing
import TestSupport

@testable import Haptics

@Suite("The player on a manual clock", .timeLimit(.minutes(5)))
struct HapticPlayerTests {
    static let settings = MotorSettings()

    /// Runs the player for `duration` of manual time, waking it at each of its deadlines.
    static func drive(
        _ clock: ManualClock, until end: Duration, afterEachWake: (Duration) async -> Void = { _ in }
    ) async {
        while clock.now.offset < end {
            guard await clock.waitForSleepers() else { return }
            guard let next = clock.nextDeadline, next.offset <= end else { return }
            clock.advanceToNextDeadline()
            await afterEachWake(clock.now.offset)
        }
    }

    /// Mean duty of the recorded writes over [from, to).
    static func meanDuty(_ writes: [RecordingPWMChannel.Write], period: UInt64, from: Duration, to: Duration) -> Double {
        var energy = 0.0
        var current = 0.0
        var time = from
        for write in writes where write.at < to {
            if write.at > time {
                energy += current * (write.at - time).seconds
                time = write.at
            }
            current = Double(write.nanoseconds) / Double(period)
        }
        energy += current * (to - time).seconds
        return energy / (to - from).seconds
    }

    @Test("writes land on scheduled edges, within limits; the heartbeat after 10 s on target cuts the drive fourfold")
    func steadyCue() async throws {
        let clock = ManualClock()
        let channel = RecordingPWMChannel(periodNanoseconds: Self.settings.periodNanoseconds, clock: clock)
        let player = HapticPlayer(channel: channel, settings: Self.settings, clock: clock)
        let running = Task { try await player.run() }
        player.deliver(cue: HapticCue(intensity: 1, sharpness: 0, isOnTarget: true))
        await Self.drive(clock, until: .seconds(25))
        running.cancel()
        try await running.value

        let writes = channel.writes
        let period = Self.settings.periodNanoseconds
        #expect(writes.allSatisfy { $0.nanoseconds <= period })
        // Every write falls on a step of the rendered pulse or heartbeat: offsets are multiples of 5 ms.
        #expect(writes.dropLast().allSatisfy { $0.at.components.attoseconds % 5_000_000_000_000_000 == 0 })
        let active = Self.meanDuty(writes, period: period, from: .zero, to: .seconds(10))
        let resting = Self.meanDuty(writes, period: period, from: .seconds(12), to: .seconds(24))
        #expect(active >= 4 * resting, "active \(active), heartbeat \(resting)")
        #expect(resting > 0, "the heartbeat still beats")
        #expect(channel.shutDownCount == 1)
        #expect(writes.last?.nanoseconds == 0)
    }

    @Test("a pattern plays ahead of the cue; silence writes nothing; cancellation leaves the motor off")
    func patternsAndSilence() async throws {
        let clock = ManualClock()
        let channel = RecordingPWMChannel(periodNanoseconds: Self.settings.periodNanoseconds, clock: clock)
        let player = HapticPlayer(channel: channel, settings: Self.settings, clock: clock)
        let running = Task { try await player.run() }
        // Silent: once its thread runs, nothing is driven and it sleeps without a deadline (no
        // polling): waiting on its alarm, not on the clock.
        // Long enough for a loaded test pool to start the player's task (the suite's limit is longer).
        let deadline = ContinuousClock.now + .seconds(120)
        while !player.isIdle && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(player.isIdle, "the player's thread never reached its idle wait")
        #expect(channel.writes.isEmpty)
        #expect(clock.sleeperCount == 0)

        let renderer = ERMRenderer(settings: Self.settings)
        player.deliver(pattern: .arrived)
        await Self.drive(clock, until: renderer.timeline(for: .arrived).length)
        let expected = renderer.timeline(for: .arrived).steps
        #expect(channel.writes.map(\.at) == expected.map(\.offset))
        #expect(channel.writes.map(\.nanoseconds) == expected.map { UInt64((Double(Self.settings.periodNanoseconds) * $0.duty).rounded()) })

        let cueStart = clock.now.offset
        player.deliver(cue: HapticCue(intensity: 0.5, sharpness: 0.5))
        // The first pulse starts at once (no waiting for a period boundary); stop inside it.
        await Self.drive(clock, until: cueStart + .milliseconds(100))
        #expect(channel.writes.first { $0.at >= cueStart }?.at == cueStart)
        #expect(channel.writes.last!.nanoseconds > 0, "mid-pulse")
        running.cancel()
        try await running.value
        #expect(channel.writes.last?.nanoseconds == 0)
        #expect(channel.shutDownCount == 1)
    }
}

extension HapticPlayerTests {
    @Test("a thousand patterns at once play at most two; silence cuts the one playing at once and drops the next")
    func boundedPatterns() async throws {
        let clock = ManualClock()
        let channel = RecordingPWMChannel(periodNanoseconds: Self.settings.periodNanoseconds, clock: clock)
        let player = HapticPlayer(channel: channel, settings: Self.settings, clock: clock)
        let running = Task { try await player.run() }
        let length = ERMRenderer(settings: Self.settings).timeline(for: .motorTest).length

        for _ in 0..<1000 { player.deliver(pattern: .motorTest) }
        await Self.drive(clock, until: length * 6)
        let lastOn = try #require(channel.writes.last { $0.nanoseconds > 0 }).at
        #expect(lastOn < length * 2, "the motor ran until \(lastOn) for patterns of \(length)")

        let start = clock.now.offset
        for _ in 0..<1000 { player.deliver(pattern: .motorTest) }
        await Self.drive(clock, until: start + .milliseconds(100))
        #expect(channel.writes.last!.nanoseconds > 0, "playing")
        let cut = clock.now.offset
        player.silence()
        for _ in 0..<200 where channel.writes.last?.nanoseconds != 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(channel.writes.last?.nanoseconds == 0)
        #expect(channel.writes.last?.at == cut, "the motor stopped without waiting for the pattern to end")
        await Self.drive(clock, until: cut + length * 3)
        #expect(!channel.writes.contains { $0.at > cut && $0.nanoseconds > 0 }, "nothing played after the silence")
        #expect(player.pattern == nil)
        running.cancel()
        try await running.value
    }

    @Test("silence and a warning cut a cue pulse short at once, with the clock standing still")
    func interruptions() async throws {
        let clock = ManualClock()
        let channel = RecordingPWMChannel(periodNanoseconds: Self.settings.periodNanoseconds, clock: clock)
        let player = HapticPlayer(channel: channel, settings: Self.settings, clock: clock)
        let running = Task { try await player.run() }

        // A soft cue's long pulse; stop 100 ms into it.
        player.deliver(cue: HapticCue(intensity: 1, sharpness: 0))
        await Self.drive(clock, until: .milliseconds(100))
        #expect(channel.writes.last!.nanoseconds > 0, "mid-pulse")
        let cut = clock.now.offset
        player.deliver(cue: nil)
        for _ in 0..<200 where channel.writes.last?.nanoseconds != 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(channel.writes.last?.nanoseconds == 0)
        #expect(channel.writes.last?.at == cut, "the motor stopped without waiting for the pulse to end")
        #expect(player.duty == 0)

        // Guiding again, then a warning: it starts at once, ahead of the rest of the pulse.
        player.deliver(cue: HapticCue(intensity: 1, sharpness: 0))
        let resumed = clock.now.offset
        await Self.drive(clock, until: resumed + .milliseconds(100))
        let warned = clock.now.offset
        player.deliver(pattern: .gpsLost)
        for _ in 0..<200 where player.pattern != .gpsLost { try await Task.sleep(for: .milliseconds(5)) }
        #expect(player.pattern == .gpsLost)
        let renderer = ERMRenderer(settings: Self.settings)
        let first = renderer.timeline(for: .gpsLost).steps[0]
        let period = Double(Self.settings.periodNanoseconds)
        for _ in 0..<200 where channel.writes.last?.nanoseconds != UInt64((period * first.duty).rounded()) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(channel.writes.last?.nanoseconds == UInt64((period * first.duty).rounded()))
        #expect(channel.writes.last?.at == warned, "the warning waited for the pulse")
        running.cancel()
        try await running.value
        #expect(channel.writes.last?.nanoseconds == 0)
    }
}

/// A channel that breaks after a few writes, as an unexported channel or a bus fault would, and
/// can be set up again once it is mended.
private final class FailingChannel: PWMChannel, Sendable {
    private struct State {
        var writesLeft = 3
        var isMended = false
        var duty: UInt64 = 0
        var writes = 0
        /// The duty last asked for, whether or not the write went through.
        var asked: UInt64?
        var reopens = 0
        var shutDowns = 0
    }

    let periodNanoseconds: UInt64 = 40_000
    private let state = Mutex(State())
    var duty: UInt64 { state.withLock { $0.duty } }
    var reopens: Int { state.withLock { $0.reopens } }
    var asked: UInt64? { state.withLock { $0.asked } }
    /// Writes that went through.
    var writes: Int { state.withLock { $0.writes } }
    var shutDowns: Int { state.withLock { $0.shutDowns } }
    func mend() { state.withLock { $0.isMended = true } }

    private static let broken = PWMError.failed(action: "set the duty cycle", SysfsError(path: "/x", errno: 19))

    func setDutyCycle(nanoseconds: UInt64) throws(PWMError) {
        try state.withLock { state throws(PWMError) in
            state.asked = nanoseconds
            guard state.writesLeft > 0 || state.isMended else { throw Self.broken }
            state.writesLeft -= 1
            state.duty = nanoseconds
            state.writes += 1
        }
    }

    func reopen() throws(PWMError) {
        try state.withLock { state throws(PWMError) in
            state.reopens += 1
            guard state.isMended else { throw Self.broken }
            state.duty = 0
        }
    }

    func shutDown() throws(PWMError) {
        state.withLock { state in
            state.duty = 0
            state.shutDowns += 1
        }
    }
}

@Suite("The player when the channel fails", .timeLimit(.minutes(5)))
struct HapticPlayerFailureTests {
    @Test("a failed channel is reported once, retried at 1, 2, 4 … s, and driven again once it works")
    func failureIsRetried() async throws {
        let clock = ManualClock()
        let channel = FailingChannel()
        let reports = Mutex<[String]>([])
        let player = HapticPlayer(channel: channel, settings: MotorSettings(), clock: clock) { fault in
            reports.withLock { $0.append(fault.map { "\($0)" } ?? "works") }
        }
        let running = Task { try await player.run() }
        player.deliver(cue: HapticCue(intensity: 1, sharpness: 0))
        await HapticPlayerTests.drive(clock, until: .seconds(8))
        #expect(player.fault != nil)
        #expect(player.duty == 0)
        #expect(channel.asked == 0, "the last thing asked of the broken channel was to stop the motor")
        // Broken at ~0 s; attempts at 1, 3 and 7 s.
        #expect(channel.reopens == 3)
        #expect(reports.withLock { $0.count } == 1, "one report for the whole spell: \(reports.withLock { $0 })")

        let writesWhileBroken = channel.writes
        channel.mend()
        await HapticPlayerTests.drive(clock, until: .seconds(20))
        #expect(channel.reopens == 4, "mended, so the attempt at 15 s worked and no more were needed")
        #expect(player.fault == nil)
        #expect(reports.withLock { $0 }.last == "works")
        #expect(reports.withLock { $0.count } == 2)
        #expect(channel.writes > writesWhileBroken + 10, "pulses are written again after the mend")
        running.cancel()
        try await running.value
        #expect(channel.shutDowns == 1)
        #expect(channel.duty == 0)
    }
}

/// A channel that records every duty written with the continuous clock's time.
private final class TimedChannel: PWMChannel, Sendable {
    struct Write: Sendable {
        let at: ContinuousClock.Instant
        let duty: Double
    }

    let periodNanoseconds: UInt64 = 40_000
    private let log = Mutex<[Write]>([])
    private let shutDowns = Mutex(0)
    var writes: [Write] { log.withLock { $0 } }
    var shutDownCount: Int { shutDowns.withLock { $0 } }

    func setDutyCycle(nanoseconds: UInt64) throws(PWMError) {
        let duty = Double(nanoseconds) / Double(periodNanoseconds)
        // Timed under the lock, so that the log's order is the times' order: a reader that
        // notes the time and then reads the log sees every write made before that time.
        log.withLock { $0.append(Write(at: .now, duty: duty)) }
    }

    func shutDown() throws(PWMError) { shutDowns.withLock { $0 += 1 } }
}

@Suite("The player on the continuous clock (its own thread)", .timeLimit(.minutes(5)))
struct HapticPlayerRealTimeTests {
    @Test("edges come on time, never early, and a silence stops the motor at once")
    func edgesAndSilence() async throws {
        let settings = MotorSettings()
        let channel = TimedChannel()
        let player = HapticPlayer(channel: channel, settings: settings, clock: ContinuousClock())
        let running = Task { try await player.run() }
        let cue = HapticCue(intensity: 1, sharpness: 0)
        let pulse = ERMRenderer(settings: settings).pulse(for: cue)
        // From any thread, without an actor hop: what the sampling thread does.
        player.deliver(cue: cue)

        // The first pulse, timed from its first edge (the player's thread may start late on a
        // loaded machine; its edges must still keep their spacing, late perhaps, never early).
        for _ in 0..<400 where channel.writes.count < pulse.steps.count { try await Task.sleep(for: .milliseconds(5)) }
        let writes = channel.writes
        try #require(writes.count >= pulse.steps.count, "the first pulse was not played")
        let first = writes[0].at
        for (write, step) in zip(writes, pulse.steps) {
            #expect(abs(write.duty - step.duty) <= 1 / 40_000, "the step's duty, to the nanosecond of the period")
            #expect(write.at - first >= step.offset - pulse.steps[0].offset - .milliseconds(1), "not early")
            #expect(write.at - first < step.offset - pulse.steps[0].offset + .milliseconds(250), "not much late")
        }

        // Silence in the middle of a pulse: the motor is off within a moment and stays off.
        // The time is noted before the log is read, so a running motor seen in the log was
        // still running at the cut, and its stop edge can only come after it.
        var cut = ContinuousClock.now
        var midPulse = false
        for _ in 0..<400 {
            cut = ContinuousClock.now
            midPulse = (channel.writes.last?.duty ?? 0) > 0
            if midPulse { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(midPulse, "no pulse was under way to cut")
        player.deliver(cue: nil)
        for _ in 0..<100 where channel.writes.last?.duty != 0 { try await Task.sleep(for: .milliseconds(5)) }
        let afterCut = channel.writes
        let stopped = try #require(afterCut.last)
        #expect(stopped.duty == 0)
        #expect(stopped.at >= cut, "the stop edge is the cut's, not the pulse's own off edge before it")
        #expect(stopped.at - cut < .milliseconds(250), "stopped \(stopped.at - cut) after the silence")
        // Longer than a whole pulse and its gap (350 + 150 ms): a player that ignored the
        // silence would have started its next pulse by then.
        try await Task.sleep(for: pulse.length + .milliseconds(100))
        #expect(channel.writes.count == afterCut.count, "nothing is written after the silence")

        running.cancel()
        try await running.value
        #expect(channel.shutDownCount == 1)
        #expect(player.duty == 0)
    }
}
