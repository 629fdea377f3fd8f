import Guidance
import Testing

/// The patterns' names and the clock answer (where am I, without a voice).
@Suite("Haptic patterns: names and the clock answer", .timeLimit(.minutes(5)))
struct HapticPatternTests {
    @Test func everyNamedPatternReadsBackFromItsName() {
        for pattern in HapticPattern.named { #expect(HapticPattern(rawValue: pattern.rawValue) == pattern) }
        #expect(Set(HapticPattern.named.map(\.rawValue)).count == HapticPattern.named.count)
        #expect(HapticPattern(rawValue: "clock") == nil, "the clock answer is made for a question, not played by name")
    }

    @Test(arguments: [
        (0.0, 12), (14.9, 12), (15.1, 1), (90, 3), (-90, 9), (180, 6), (-180, 6), (165.1, 6), (-14.9, 12), (-15.1, 11), (344, 11),
    ])
    func theHourOfADirection(errorDegrees: Double, hour: Int) {
        #expect(HapticPattern.clockHour(errorDegrees: errorDegrees) == hour)
    }

    @Test(arguments: [(20.0, 1), (149, 1), (151, 2), (240, 2), (960, 10), (25_000, 10)])
    func theHundredsOfADistance(meters: Double, hundreds: Int) {
        #expect(HapticPattern.clock(errorDegrees: 90, meters: meters) == .clock(hour: 3, hundreds: hundreds))
    }

    @Test func theClockPlaysTheHoursLongThenTheHundredsShortWithAPauseBetween() {
        let pulses = HapticPattern.clock(hour: 3, hundreds: 2).pulses
        #expect(pulses.count == 5)
        let hours = pulses.prefix(3), ticks = pulses.suffix(2)
        #expect(hours.allSatisfy { $0.on == .milliseconds(250) && $0.level == 1 })
        #expect(ticks.allSatisfy { $0.on == .milliseconds(70) && $0.level < 1 })
        #expect(pulses[2].off == .milliseconds(900), "the pause between the counts is longer than any gap within them")
        #expect(pulses.dropLast().filter { $0.off == .milliseconds(900) }.count == 1)
        // Twelve o'clock and ten hundreds: the longest answer, under 9 s.
        let longest = HapticPattern.clock(hour: 12, hundreds: 10).pulses
        let total = longest.reduce(Duration.zero) { $0 + $1.on + $1.off }
        #expect(longest.count == 22 && total < .seconds(9))
    }
}
