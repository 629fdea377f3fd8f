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
        var bytes: [UInt8] = []
        appendFixed(value, fractionDigits: fractionDigits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` with at most `maximumFractionDigits` digits after the point and no trailing
    /// zeros: `5`, `2.5`, `0.3` (for people: seconds, metres in messages).
    public static func short(_ value: Double, maximumFractionDigits: Int) -> String {
        var text = fixed(value, fractionDigits: maximumFractionDigits)
        guard value.isFinite, text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// ``fixed(_:fractionDigits:)``'s text appended to `bytes` as UTF-8, without allocating
    /// once `bytes` has room: for lines written many times a minute (the breadcrumb trail).
    /// - Parameters:
    ///   - value: the number to write.
    ///   - fractionDigits: digits after the point, 0…`maximumFractionDigits`.
    ///   - bytes: where the text goes.
    public static func appendFixed(_ value: Double, fractionDigits: Int, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes += nonFiniteText(value).utf8
            return
        }
        let digits = min(max(fractionDigits, 0), maximumFractionDigits)
        guard let units = roundedUnits(value, unitsPerDegree: powerOfTen(digits)) else {
            bytes += String(describing: value).utf8
            return
        }
        if value < 0 && units > 0 { bytes.append(UInt8(ascii: "-")) }
        appendFixedPoint(units, fractionDigits: digits, to: &bytes)
    }

    /// A whole number appended to `bytes` in decimal, without allocating once `bytes` has room.
    public static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendFixedPoint(UInt64(value.magnitude), fractionDigits: 0, to: &bytes)
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
        var bytes: [UInt8] = []
        appendFixedPoint(units, fractionDigits: fractionDigits, wholeWidth: wholeWidth, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``fixedPoint(_:fractionDigits:wholeWidth:)`` appended to `bytes`: digits from the most
    /// significant, by integer division, so nothing is allocated but room in `bytes`.
    static func appendFixedPoint(_ units: UInt64, fractionDigits: Int, wholeWidth: Int = 1, to bytes: inout [UInt8]) {
        let scale = powerOfTen(fractionDigits)
        let whole = units / scale
        var wholeDigits = 1
        var divisor: UInt64 = 1
        while whole / divisor >= 10 {
            divisor *= 10
            wholeDigits += 1
        }
        for _ in wholeDigits..<max(wholeDigits, wholeWidth) { bytes.append(UInt8(ascii: "0")) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(whole / divisor % 10))
            divisor /= 10
        }
        guard fractionDigits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var fraction = units % scale
        var place = scale / 10
        while place > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / place))
            fraction %= place
            place /= 10
        }
    }
}
