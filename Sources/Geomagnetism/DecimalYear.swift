/// Conversion of a Gregorian calendar date and UTC time of day to the decimal year that
/// magnetic models take, the way NOAA's WMM software computes it:
/// year + (day of year − 1 + fraction of the day) / days in the year.
///
/// For example 2026-07-02 00:00 is 2026 + 182/365 = 2026.49863, and 2028-12-31 is
/// 2028 + 365/366 (2028 is a leap year).
public enum DecimalYear {
    /// Months in a year.
    static let monthsPerYear = 12
    /// Hours in a day.
    static let hoursPerDay = 24
    /// Minutes in an hour.
    static let minutesPerHour = 60
    /// Seconds in a minute, not counting a leap second.
    static let secondsPerMinute = 60
    /// Seconds in an ordinary day.
    static let secondsPerDay = Double(hoursPerDay * minutesPerHour * secondsPerMinute)
    /// Seconds in an hour.
    static let secondsPerHour = Double(minutesPerHour * secondsPerMinute)
    /// Exclusive upper bound on the seconds field: one more than an ordinary minute allows,
    /// so that a UTC leap second (23:59:60.x) is accepted.
    static let secondsLimit = Double(secondsPerMinute + 1)
    /// Days in each month of a common year, January first.
    private static let commonYearMonthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    /// Days in a common year.
    private static let commonYearDays = 365
    /// The Gregorian rule: every 4th year is a leap year, except centuries not divisible by
    /// 400.
    private static let leapYearInterval = 4
    private static let centuryInterval = 100
    private static let leapCenturyInterval = 400

    /// The decimal year of a UTC date and time.
    ///
    /// - Parameters:
    ///   - year: Gregorian year (proleptic before 1582).
    ///   - month: Month, 1–12.
    ///   - day: Day of the month, 1 through the month's length (February has 29 days in a
    ///     leap year).
    ///   - hour: Hour, 0–23.
    ///   - minute: Minute, 0–59.
    ///   - second: Second, 0 ≤ s < 61; values from 60 on are a leap second.
    /// - Returns: The decimal year, for example 2026.49863 for 2026-07-02 00:00:00.
    /// - Throws: `DecimalYearError` naming the field that is out of range, for example
    ///   `.dayOutOfRange` for 2026-02-30.
    public static func from(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0
    ) throws(DecimalYearError) -> Double {
        guard let monthDays = daysInMonth(month, year: year) else {
            throw .monthOutOfRange(month: month)
        }
        guard day >= 1, day <= monthDays else {
            throw .dayOutOfRange(day: day, month: month, year: year)
        }
        guard hour >= 0, hour < hoursPerDay else { throw .hourOutOfRange(hour: hour) }
        guard minute >= 0, minute < minutesPerHour else {
            throw .minuteOutOfRange(minute: minute)
        }
        guard second >= 0, second < secondsLimit else {
            throw .secondOutOfRange(second: second)
        }
        let daysBefore = commonYearMonthDays.prefix(month - 1).reduce(0, +)
            + (month > 2 && isLeapYear(year) ? 1 : 0)
        let secondsIntoDay =
            Double(hour) * secondsPerHour + Double(minute) * Double(secondsPerMinute) + second
        let daysIntoYear = Double(daysBefore + day - 1) + secondsIntoDay / secondsPerDay
        return Double(year) + daysIntoYear / Double(daysInYear(year))
    }

    /// Whether a year is a Gregorian leap year.
    ///
    /// - Parameter year: Gregorian year.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % leapYearInterval == 0
            && (year % centuryInterval != 0 || year % leapCenturyInterval == 0)
    }

    /// Days in a Gregorian year: 366 in a leap year, else 365.
    ///
    /// - Parameter year: Gregorian year.
    public static func daysInYear(_ year: Int) -> Int {
        commonYearDays + (isLeapYear(year) ? 1 : 0)
    }

    /// Days in a month of a Gregorian year, or `nil` for a month outside 1–12.
    ///
    /// - Parameters:
    ///   - month: Month, 1–12.
    ///   - year: Gregorian year, which decides February.
    public static func daysInMonth(_ month: Int, year: Int) -> Int? {
        guard month >= 1, month <= monthsPerYear else { return nil }
        let february = 2
        return commonYearMonthDays[month - 1] + (month == february && isLeapYear(year) ? 1 : 0)
    }
}
