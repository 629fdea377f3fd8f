/// Fixed-point decimal text without Foundation: `DecimalFormat.fixed(3.14159, fractionDigits: 2)`
/// is `"3.14"`. Digits come from integer arithmetic after one rounding at the last digit, so
/// carries are right (`9.996` → `"10.00"`) and a value that rounds to zero never prints `-0`.
public enum DecimalFormat {
    /// The most fraction digits `fixed` writes; more are clamped.
    public static let maximumFractionDigits = 12

    /// Integers a `Double` holds exactly; a scaled value at or above this cannot be rounded to a
    /// whole unit reliably.
    static let exactIntegerLimit = 9_007_199_254_740_992.0  // 2^53

    /// `value` with exactly `fractionDigits` digits after the point (halfway rounds away from
    /// zero); `nan`, `inf` or `-inf` for non-finite values, and Swift's shortest form for
    /// values too large to scale exactly.
    /// - Parameters:
    ///   - value: the number to write.
    ///   - fractionDigits: digits after the point, 0…`maximumFractionDigits`.
    public static func fixed(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else {
            return nonFiniteText(value)
        }
        let digits = min(max(fractionDigits, 0), maximumFractionDigits)
        guard let units = roundedUnits(value, unitsPerDegree: powerOfTen(digits)) else {
            return String(describing: value)
        }
        let text = fixedPoint(units, fractionDigits: digits)
        return value < 0 && units > 0 ? "-" + text : text
    }

    static func powerOfTen(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent {
            result *= 10
        }
        return result
    }

    /// Text for a non-finite value.
    static func nonFiniteText(_ value: Double) -> String {
        value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
    }

    /// `|value| · unitsPerDegree` rounded to a whole number, or `nil` when it is too large to be
    /// exact.
    static func roundedUnits(_ value: Double, unitsPerDegree: UInt64) -> UInt64? {
        let scaled = (value.magnitude * Double(unitsPerDegree)).rounded(.toNearestOrAwayFromZero)
        guard scaled < exactIntegerLimit else {
            return nil
        }
        return UInt64(scaled)
    }

    /// Writes `units / 10^fractionDigits` with exactly `fractionDigits` digits after the point,
    /// and at least `wholeWidth` digits before it.
    static func fixedPoint(_ units: UInt64, fractionDigits: Int, wholeWidth: Int = 1) -> String {
        let scale = powerOfTen(fractionDigits)
        let whole = String(units / scale)
        var text = String(repeating: "0", count: max(wholeWidth - whole.count, 0)) + whole
        if fractionDigits > 0 {
            let fraction = String(units % scale)
            text += "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
        }
        return text
    }
}
