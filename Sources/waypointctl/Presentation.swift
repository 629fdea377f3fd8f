import Geodesy

/// How numbers read for a person: rounded to what matters on foot, with units and names.
enum Presentation {
    /// `812 m` below a kilometre, `3.21 km` below 100 km, `5 837 km` beyond.
    static func distance(meters: Double) -> String {
        switch meters {
        case ..<1000: return DecimalFormat.fixed(meters, fractionDigits: meters < 10 ? 1 : 0) + " m"
        case ..<100_000: return DecimalFormat.fixed(meters / 1000, fractionDigits: 2) + " km"
        default: return DecimalFormat.fixed(meters / 1000, fractionDigits: 0) + " km"
        }
    }

    /// `83.4° (E, east)`: 0–360 clockwise from true north, with the compass point.
    static func bearing(degrees: Double) -> String {
        let normalized = Angle.normalized(degrees)
        let shown = DecimalFormat.fixed(normalized, fractionDigits: 1)
        // 359.96° rounds to "360.0": show it as north's 0.0 instead.
        let text = shown == "360.0" ? "0.0" : shown
        guard let point = CompassPoint(bearingDegrees: normalized) else { return text + "°" }
        return "\(text)° (\(point.abbreviation), \(point.spokenName))"
    }

    /// `+1.16°` with an explicit sign, for quantities whose sign means a direction.
    static func signed(_ value: Double, fractionDigits: Int, unit: String) -> String {
        let text = DecimalFormat.fixed(value, fractionDigits: fractionDigits)
        return (text.hasPrefix("-") ? text : "+" + text) + unit
    }
}
