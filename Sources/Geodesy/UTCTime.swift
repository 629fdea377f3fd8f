/// An instant in UTC as seconds and nanoseconds since 1970-01-01T00:00:00Z (POSIX time, no leap
/// seconds), the form GPS daemons report.
public struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since the Unix epoch; negative before 1970.
    public var seconds: Int64
    /// Nanoseconds past `seconds`, 0 ..< 1 000 000 000.
    public var nanoseconds: Int32

    static let nanosecondsPerSecond: Int64 = 1_000_000_000
    static let secondsPerDay: Int64 = 86_400

    /// An instant from POSIX seconds and nanoseconds; nanoseconds outside one second carry over.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        let carry = Self.floorDivide(nanoseconds, Self.nanosecondsPerSecond)
        self.seconds = seconds + carry
        self.nanoseconds = Int32(nanoseconds - carry * Self.nanosecondsPerSecond)
    }

    /// The instant as a civil date and time: `2026-05-01T12:00:00.500Z` (ISO 8601, UTC, with
    /// milliseconds, as gpsd writes it).
    public var iso8601: String {
        let days = Self.floorDivide(seconds, Self.secondsPerDay)
        let secondOfDay = seconds - days * Self.secondsPerDay
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        let milliseconds = Int64(nanoseconds) / 1_000_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millisecondText = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
            + ":\(two(secondOfDay % 60)).\(millisecondText)Z"
    }

    /// `iso8601`.
    public var description: String { iso8601 }

    /// The instant as POSIX seconds in one number (to about a microsecond today): what the
    /// trail stores and the protocol sends.
    public var posixSeconds: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// The instant of `posixSeconds`, to the millisecond (what ``iso8601`` writes).
    public init(posixSeconds: Double) {
        let whole = posixSeconds.rounded(.down)
        self.init(seconds: Int64(whole), nanoseconds: Int64(((posixSeconds - whole) * 1000).rounded()) * 1_000_000)
    }

    /// The instant as a decimal year for the magnetic model: year + (day of year − 1 + fraction of
    /// the day) / days in the year, NOAA's convention.
    public var decimalYear: Double {
        let days = Self.floorDivide(seconds, Self.secondsPerDay)
        let (year, _, _) = Self.civilDate(daysSinceEpoch: days)
        let startOfYear = Self.daysSinceEpoch(year: year, month: 1, day: 1)
        let daysInYear = Double(Self.daysSinceEpoch(year: year + 1, month: 1, day: 1) - startOfYear)
        let secondsIntoYear = Double(seconds - startOfYear * Self.secondsPerDay) + Double(nanoseconds) / 1e9
        return Double(year) + secondsIntoYear / (daysInYear * Double(Self.secondsPerDay))
    }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// `a / b` rounded towards −∞, for b > 0.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Gregorian calendar date of a day count since 1970-01-01, by whole 400-year eras
    /// (146 097 days each), so it is exact for any day.
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // Count from 0000-03-01 so that the leap day ends each 4-year cycle.
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a Gregorian date; the inverse of `civilDate`.
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension UTCTime {
    /// Reads `2026-05-01T12:00:00.5Z` (any number of fraction digits, or none); nil for
    /// anything else, including dates that do not exist.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in range {
                guard bytes[index] >= 48 && bytes[index] <= 57 else { return nil }
                value = value * 10 + Int64(bytes[index] - 48)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [(4, 45), (7, 45), (10, 84), (13, 58), (16, 58)]
        guard bytes.count >= 20, bytes.last == 90, separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
            let hour = digits(11..<13), let minute = digits(14..<16), let second = digits(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds: Int64 = 0
        if bytes.count > 20 {
            guard bytes[19] == 46, bytes.count - 21 >= 1, bytes.count - 21 <= 9, let fraction = digits(20..<(bytes.count - 1))
            else { return nil }
            var scale: Int64 = 1
            for _ in 0..<(9 - (bytes.count - 21)) { scale *= 10 }
            nanoseconds = fraction * scale
        } else if bytes.count != 20 {
            return nil
        }
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        // Reject 2026-02-30 and the like: the day must survive the round trip.
        guard Self.civilDate(daysSinceEpoch: days) == (year, month, day) else { return nil }
        self.init(seconds: days * Self.secondsPerDay + hour * 3600 + minute * 60 + second, nanoseconds: nanoseconds)
    }
}
