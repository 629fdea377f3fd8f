import Geomagnetism
import Testing

/// NOAA's decimal year: year + (day of year − 1 + fraction of day) / days in the year.
@Suite("Decimal year", .timeLimit(.minutes(5)))
struct DecimalYearTests {
    @Test("2026-07-02 is 2026.49863")
    func noaaExample() throws {
        let year = try DecimalYear.from(year: 2026, month: 7, day: 2)
        #expect(Swift.abs(year - 2026.49863) < 5e-6)
        #expect(year == 2026 + 182.0 / 365.0)
    }

    @Test("January 1 at midnight is the integer year")
    func januaryFirst() throws {
        #expect(try DecimalYear.from(year: 2025, month: 1, day: 1) == 2025.0)
        #expect(try DecimalYear.from(year: 2028, month: 1, day: 1) == 2028.0)
    }

    @Test("December 31 in common and leap years")
    func decemberThirtyFirst() throws {
        #expect(try DecimalYear.from(year: 2027, month: 12, day: 31) == 2027 + 364.0 / 365.0)
        #expect(try DecimalYear.from(year: 2028, month: 12, day: 31) == 2028 + 365.0 / 366.0)
        let lastSecond = try DecimalYear.from(
            year: 2027, month: 12, day: 31, hour: 23, minute: 59, second: 59.999)
        #expect(lastSecond < 2028.0 && lastSecond > 2027.99999)
    }

    @Test("leap years follow the Gregorian rule")
    func leapYears() throws {
        #expect(DecimalYear.isLeapYear(2028))
        #expect(DecimalYear.isLeapYear(2000))
        #expect(!DecimalYear.isLeapYear(2100))
        #expect(!DecimalYear.isLeapYear(2026))
        #expect(DecimalYear.daysInYear(2028) == 366)
        #expect(DecimalYear.daysInYear(2029) == 365)
        // 2028-03-01 is day 61 of 366.
        #expect(try DecimalYear.from(year: 2028, month: 3, day: 1) == 2028 + 60.0 / 366.0)
        #expect(try DecimalYear.from(year: 2028, month: 2, day: 29) == 2028 + 59.0 / 366.0)
        #expect(try DecimalYear.from(year: 2000, month: 2, day: 29) == 2000 + 59.0 / 366.0)
    }

    @Test("the time of day adds its fraction")
    func timeOfDay() throws {
        let noon = try DecimalYear.from(year: 2026, month: 1, day: 1, hour: 12)
        #expect(noon == 2026 + 0.5 / 365)
        let precise = try DecimalYear.from(
            year: 2026, month: 7, day: 2, hour: 6, minute: 30, second: 45.5)
        let seconds = 6.0 * 3600 + 30 * 60 + 45.5
        #expect(Swift.abs(precise - (2026 + (182 + seconds / 86_400) / 365)) < 1e-12)
        // A leap second is accepted.
        #expect(throws: Never.self) {
            try DecimalYear.from(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60.5)
        }
    }

    @Test(
        "invalid dates are rejected with the offending field",
        arguments: [
            (2026, 2, 30, 0, 0, 0.0, DecimalYearError.dayOutOfRange(day: 30, month: 2, year: 2026)),
            (2026, 2, 29, 0, 0, 0, .dayOutOfRange(day: 29, month: 2, year: 2026)),
            (2100, 2, 29, 0, 0, 0, .dayOutOfRange(day: 29, month: 2, year: 2100)),
            (2026, 4, 31, 0, 0, 0, .dayOutOfRange(day: 31, month: 4, year: 2026)),
            (2026, 1, 0, 0, 0, 0, .dayOutOfRange(day: 0, month: 1, year: 2026)),
            (2026, 13, 1, 0, 0, 0, .monthOutOfRange(month: 13)),
            (2026, 0, 1, 0, 0, 0, .monthOutOfRange(month: 0)),
            (2026, 1, 1, 24, 0, 0, .hourOutOfRange(hour: 24)),
            (2026, 1, 1, -1, 0, 0, .hourOutOfRange(hour: -1)),
            (2026, 1, 1, 0, 60, 0, .minuteOutOfRange(minute: 60)),
            (2026, 1, 1, 0, 0, 61, .secondOutOfRange(second: 61)),
            (2026, 1, 1, 0, 0, -0.5, .secondOutOfRange(second: -0.5)),
        ])
    func invalid(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double,
        error: DecimalYearError
    ) {
        #expect(throws: error) {
            try DecimalYear.from(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }
    }

    @Test("a NaN second is rejected, and errors describe themselves")
    func nanSecondAndDescription() {
        #expect(throws: DecimalYearError.self) {
            try DecimalYear.from(year: 2026, month: 1, day: 1, second: .nan)
        }
        #expect(
            DecimalYearError.dayOutOfRange(day: 30, month: 2, year: 2026).description
                == "day 30 is not in 1...28 for month 2 of 2026")
    }

    @Test("extreme years do not trap")
    func extremeYears() throws {
        #expect(try DecimalYear.from(year: Int.max, month: 12, day: 31).isFinite)
        #expect(try DecimalYear.from(year: Int.min, month: 1, day: 1).isFinite)
    }
}
