import Testing
import WebCompanion

@Suite(.timeLimit(.minutes(5))) struct PairingThrottleTests {
    @Test func tenWrongTokensInAMinuteLockThatAddressAMinute() {
        var throttle = PairingThrottle()
        for second in 0..<9 {
            throttle.recordFailure("192.0.2.7", at: Double(second))
            #expect(throttle.allows("192.0.2.7", at: Double(second)))
        }
        throttle.recordFailure("192.0.2.7", at: 9)
        #expect(!throttle.allows("192.0.2.7", at: 9) && !throttle.allows("192.0.2.7", at: 68.9))
        #expect(throttle.secondsLeft("192.0.2.7", at: 9) == 60)
        #expect(throttle.allows("192.0.2.7", at: 69))
        // The phone, at another address, was never refused.
        #expect(throttle.allows("192.0.2.20", at: 9) && throttle.secondsLeft("192.0.2.20", at: 30) == 0)
    }

    @Test func slowMistakesNeverLock() {
        var throttle = PairingThrottle()
        // Nine a minute for an hour: a person mistyping, never a flood.
        for minute in 0..<60 {
            for attempt in 0..<9 { throttle.recordFailure("192.0.2.7", at: Double(minute) * 60 + Double(attempt)) }
            #expect(throttle.allows("192.0.2.7", at: Double(minute) * 60 + 30))
        }
    }

    @Test func manyAddressesMeetTheCeilingButAnAddressThatNeverFailedIsStillJudged() {
        var throttle = PairingThrottle()
        // 100 addresses, one wrong token each in the same second: none alone is near its limit.
        for host in 0..<PairingThrottle.maximumFailuresOverall { throttle.recordFailure("10.0.\(host / 256).\(host % 256)", at: 5) }
        #expect(!throttle.allows("10.0.0.3", at: 6), "a failing address is refused past the ceiling")
        #expect(throttle.secondsLeft("10.0.0.3", at: 6) == 59)
        #expect(throttle.allows("192.0.2.20", at: 6), "the phone, which never failed, is still judged")
        #expect(throttle.allows("10.0.0.3", at: 65))
    }

    @Test func theTableOfAddressesIsBoundedFarPastItsLimit() {
        var throttle = PairingThrottle()
        // 100 000 addresses, each failing once, a hundred a second.
        for host in 0..<100_000 { throttle.recordFailure("a\(host)", at: Double(host) * 0.01) }
        #expect(throttle.addressCount == PairingThrottle.maximumAddresses)
    }
}
