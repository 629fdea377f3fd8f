import Testing

@testable import Daemon

/// When the sampling thread tells the core that the IMU stopped answering (issue 30, item 1).
@Suite("IMU silence", .timeLimit(.minutes(5)))
struct IMUSilenceTests {
    @Test("the IMU counts as silent after 1 s and three failed reads since the last good one, once; a good read ends it")
    func silenceRule() {
        let start = ContinuousClock.now
        var silence = IMUSilence(now: start)
        // Idle: reads two seconds apart; one failure is a blip.
        #expect(silence.failed(at: start + .seconds(2)) == nil)
        #expect(silence.answered(at: start + .seconds(4)) == false)
        // Guiding: ten a second.
        for tenth in 1...9 { #expect(silence.failed(at: start + .seconds(4) + .milliseconds(100 * tenth)) == nil) }
        #expect(silence.failed(at: start + .seconds(5)) == start + .seconds(4))
        #expect(silence.failed(at: start + .seconds(6)) == nil, "reported once")
        #expect(silence.isSilent)
        #expect(silence.answered(at: start + .seconds(7)) == true)
        #expect(!silence.isSilent)
    }
}
