import Testing
import WebCompanion

@Suite(.timeLimit(.minutes(5))) struct PairingThrottleTests {
    @Test func tenWrongTokensInAMinuteLockAMinute() {
        var throttle = PairingThrottle()
        for second in 0..<9 {
            throttle.recordFailure(at: Double(second))
            #expect(throttle.allows(at: Double(second)))
        }
        throttle.recordFailure(at: 9)
        #expect(!throttle.allows(at: 9) && !throttle.allows(at: 68.9))
        #expect(throttle.secondsLeft(at: 9) == 60)
        #expect(throttle.allows(at: 69))
    }

    @Test func slowMistakesNeverLock() {
        var throttle = PairingThrottle()
        // Nine a minute for an hour: a person mistyping, never a flood.
        for minute in 0..<60 {
            for attempt in 0..<9 { throttle.recordFailure(at: Double(minute) * 60 + Double(attempt)) }
            #expect(throttle.allows(at: Double(minute) * 60 + 30))
        }
    }
}
