/// Text forms of a coordinate: decimal degrees, degrees-minutes-seconds, degrees and decimal
/// minutes, and `geo:` URIs. Every form is read back by ``Coordinate/init(parsing:)``.
///
/// The digits are produced from integers, not with `String(format:)` (which is Foundation): the
/// value is scaled to whole units of the last printed digit and rounded once, so a rounding
/// carry runs through seconds, minutes and degrees together (59.96″ with one digit prints as the
/// next minute, never as 60.0″). Halfway cases round away from zero.
extension Coordinate {
    /// The most fraction digits the decimal forms print; more are clamped to this.
    ///
    /// Scaled values must stay below 2^53 to be exact integers in a `Double`; 180° at 12 digits
    /// is 1.8e14, far below, and 12 digits already resolve a micrometre.
    public static let maximumDecimalFractionDigits = 12

    /// The most fraction digits of minutes or seconds the sexagesimal forms print; more are
    /// clamped to this.
    public static let maximumSexagesimalFractionDigits = 9

    /// The coordinate as signed decimal degrees, latitude first: `48.858400 2.294500`.
    ///
    /// - Parameter fractionDigits: Digits after the point, clamped to
    ///   0...``maximumDecimalFractionDigits``; the default 6 resolves about 0.1 m.
    /// - Returns: Both values separated by a space. A value that rounds to zero has no minus
    ///   sign; a non-finite value (possible only through the unchecked initializer) prints as
    ///   `nan`, `inf` or `-inf`.
    public func formattedDecimal(fractionDigits: Int = 6) -> String {
        let digits = Self.clamped(fractionDigits, to: Self.maximumDecimalFractionDigits)
        return DecimalFormat.fixed(latitudeDegrees, fractionDigits: digits) + " "
            + DecimalFormat.fixed(longitudeDegrees, fractionDigits: digits)
    }

    /// The coordinate as an RFC 5870 URI: `geo:48.858400,2.294500`.
    ///
    /// - Parameter fractionDigits: Digits after the point, clamped to
    ///   0...``maximumDecimalFractionDigits``.
    /// - Returns: The URI, without altitude or parameters (WGS84 is the default CRS).
    public func geoURI(fractionDigits: Int = 6) -> String {
        let digits = Self.clamped(fractionDigits, to: Self.maximumDecimalFractionDigits)
        return "geo:" + DecimalFormat.fixed(latitudeDegrees, fractionDigits: digits) + ","
            + DecimalFormat.fixed(longitudeDegrees, fractionDigits: digits)
    }

    /// The coordinate in degrees, minutes and seconds with hemisphere letters:
    /// `48°51'30.2"N 2°17'40.2"E`.
    ///
    /// Minutes and whole seconds always have two digits, as map apps print them
    /// (`0°07'39.0"W`). Zero prints as N or E.
    ///
    /// - Parameter secondsFractionDigits: Digits after the seconds' point, clamped to
    ///   0...``maximumSexagesimalFractionDigits``; the default 1 resolves about 3 m.
    /// - Returns: Latitude and longitude separated by a space.
    public func formattedDegreesMinutesSeconds(secondsFractionDigits: Int = 1) -> String {
        let digits = Self.clamped(secondsFractionDigits, to: Self.maximumSexagesimalFractionDigits)
        return Self.sexagesimal(
            latitudeDegrees, positive: "N", negative: "S", withSeconds: true,
            fractionDigits: digits)
            + " "
            + Self.sexagesimal(
                longitudeDegrees, positive: "E", negative: "W", withSeconds: true,
                fractionDigits: digits)
    }

    /// The coordinate in degrees and decimal minutes with hemisphere letters, the form of
    /// geocaching and marine GPS: `48°51.503'N 2°17.670'E`.
    ///
    /// - Parameter minutesFractionDigits: Digits after the minutes' point, clamped to
    ///   0...``maximumSexagesimalFractionDigits``; the default 3 resolves about 2 m.
    /// - Returns: Latitude and longitude separated by a space.
    public func formattedDegreesDecimalMinutes(minutesFractionDigits: Int = 3) -> String {
        let digits = Self.clamped(minutesFractionDigits, to: Self.maximumSexagesimalFractionDigits)
        return Self.sexagesimal(
            latitudeDegrees, positive: "N", negative: "S", withSeconds: false,
            fractionDigits: digits)
            + " "
            + Self.sexagesimal(
                longitudeDegrees, positive: "E", negative: "W", withSeconds: false,
                fractionDigits: digits)
    }

    // MARK: - Sexagesimal digits

    private static let minutesPerDegree: UInt64 = 60
    private static let secondsPerMinute: UInt64 = 60

    /// Digits kept at least for minutes and whole seconds (`07`).
    private static let sexagesimalFieldWidth = 2

    private static func clamped(_ digits: Int, to maximum: Int) -> Int {
        min(max(digits, 0), maximum)
    }

    /// Degrees and minutes, and seconds when asked, with a hemisphere letter.
    ///
    /// - Parameters:
    ///   - value: Signed degrees.
    ///   - positive: The letter for zero and positive values.
    ///   - negative: The letter for negative values.
    ///   - withSeconds: Whether the last field is seconds (else minutes).
    ///   - fractionDigits: Digits after the point of the last field.
    private static func sexagesimal(
        _ value: Double, positive: String, negative: String, withSeconds: Bool,
        fractionDigits: Int
    ) -> String {
        guard value.isFinite else {
            return DecimalFormat.nonFiniteText(value)
        }
        let unitsPerLastField = DecimalFormat.powerOfTen(fractionDigits)
        let unitsPerMinute = withSeconds ? secondsPerMinute * unitsPerLastField : unitsPerLastField
        let unitsPerDegree = minutesPerDegree * unitsPerMinute
        guard let units = DecimalFormat.roundedUnits(value, unitsPerDegree: unitsPerDegree) else {
            return String(describing: value) + "°"
        }
        // Rounded once at the last digit, so carries have already happened.
        let degrees = units / unitsPerDegree
        let unitsWithinDegree = units % unitsPerDegree
        let hemisphere = value < 0 && units > 0 ? negative : positive
        var text = String(degrees) + "°"
        if withSeconds {
            let minutes = unitsWithinDegree / unitsPerMinute
            let secondsUnits = unitsWithinDegree % unitsPerMinute
            text += DecimalFormat.fixedPoint(minutes, fractionDigits: 0, wholeWidth: sexagesimalFieldWidth) + "'"
            text += DecimalFormat.fixedPoint(
                secondsUnits, fractionDigits: fractionDigits, wholeWidth: sexagesimalFieldWidth)
            text += "\""
        } else {
            text += DecimalFormat.fixedPoint(
                unitsWithinDegree, fractionDigits: fractionDigits,
                wholeWidth: sexagesimalFieldWidth)
            text += "'"
        }
        return text + hemisphere
    }
}
