import Foundation
import Testing
import TestSupport

@testable import Geodesy

@Suite("UTC time", .timeLimit(.minutes(5)))
struct UTCTimeTests {
    /// Foundation's formatter, an independent implementation of the calendar.
    static func foundationISO(_ seconds: Int64, milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000))
    }

    @Test("ISO 8601 text agrees with Foundation from 1900 to 2400")
    func iso8601() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<5000 {
            let seconds = Int64.random(in: -2_208_988_800...13_569_465_600, using: &generator)
            let milliseconds = Int64.random(in: 0..<1000, using: &generator)
            let time = UTCTime(seconds: seconds, nanoseconds: milliseconds * 1_000_000)
            #expect(time.iso8601 == Self.foundationISO(seconds, milliseconds: milliseconds), "\(seconds)")
        }
        #expect(UTCTime(seconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime(seconds: 951_782_400).iso8601 == "2000-02-29T00:00:00.000Z")
        #expect(UTCTime(seconds: -1, nanoseconds: 500_000_000).iso8601 == "1969-12-31T23:59:59.500Z")
    }

    @Test("nanoseconds carry into seconds either way")
    func carry() {
        #expect(UTCTime(seconds: 10, nanoseconds: 1_500_000_000) == UTCTime(seconds: 11, nanoseconds: 500_000_000))
        let negative = UTCTime(seconds: 10, nanoseconds: -250_000_000)
        #expect(negative.seconds == 9 && negative.nanoseconds == 750_000_000)
        #expect(UTCTime(seconds: 1) < UTCTime(seconds: 1, nanoseconds: 1))
    }

    @Test("decimal years follow NOAA's convention")
    func decimalYear() {
        // 2026-07-02T00:00Z is day 183 of 2026: 2026 + 182/365.
        #expect(abs(UTCTime(seconds: 1_782_950_400).decimalYear - (2026 + 182.0 / 365)) < 1e-12)
        // Noon on 2028-12-31, a leap year: 2028 + 365.5/366.
        #expect(abs(UTCTime(seconds: 1_861_876_800).decimalYear - (2028 + 365.5 / 366)) < 1e-12)
        #expect(UTCTime(seconds: 1_735_689_600).decimalYear == 2025)
    }

    @Test("POSIX seconds as one number, and back to the millisecond")
    func posixSeconds() {
        #expect(UTCTime(seconds: 1_782_950_400, nanoseconds: 250_000_000).posixSeconds == 1_782_950_400.25)
        #expect(UTCTime(posixSeconds: 1_782_950_400.25).iso8601 == "2026-07-02T00:00:00.250Z")
        #expect(UTCTime(posixSeconds: 1_782_950_400.9996).iso8601 == "2026-07-02T00:00:01.000Z")
        #expect(UTCTime(posixSeconds: -0.5) == UTCTime(seconds: -1, nanoseconds: 500_000_000))
    }
}
