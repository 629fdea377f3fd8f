/// A calendar field that cannot be turned into a decimal year.
public enum DecimalYearError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The month is not in 1–12.
    case monthOutOfRange(month: Int)
    /// The day is not in 1 through the length of that month in that year, for example
    /// 2026-02-29 or 2026-04-31.
    case dayOutOfRange(day: Int, month: Int, year: Int)
    /// The hour is not in 0–23.
    case hourOutOfRange(hour: Int)
    /// The minute is not in 0–59.
    case minuteOutOfRange(minute: Int)
    /// The second is not in 0 ≤ s < 61, or is NaN.
    case secondOutOfRange(second: Double)

    /// A one-line message naming the field and its allowed range.
    public var description: String {
        switch self {
        case .monthOutOfRange(let month):
            return "month \(month) is not in 1...12"
        case .dayOutOfRange(let day, let month, let year):
            let limit = DecimalYear.daysInMonth(month, year: year).map { "1...\($0)" } ?? "range"
            return "day \(day) is not in \(limit) for month \(month) of \(year)"
        case .hourOutOfRange(let hour):
            return "hour \(hour) is not in 0...23"
        case .minuteOutOfRange(let minute):
            return "minute \(minute) is not in 0...59"
        case .secondOutOfRange(let second):
            return "second \(second) is not in 0..<61"
        }
    }
}
