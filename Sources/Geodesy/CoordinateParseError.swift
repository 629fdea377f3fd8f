/// Why a coordinate could not be read or built.
///
/// Each case carries the text it is about (a number, one latitude or longitude value as typed,
/// or the whole input), so a message can point at the problem. ``description`` is a plain-words
/// sentence meant for the person who typed the text.
public enum CoordinateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is empty or only whitespace.
    case empty

    /// A number is not a plain decimal (`1e999`, `nan`, `inf`, `0x1p3`, `1.2.3`), or a value is
    /// NaN.
    case invalidNumber(String)

    /// Text that is not part of any coordinate form appears where a value was expected.
    case unexpectedText(String)

    /// Text that is not a number follows a complete latitude and longitude.
    case trailingText(String)

    /// The input holds only one value, so the longitude is missing.
    case missingLongitude(String)

    /// The input holds more than two values (the text is the whole input).
    case tooManyValues(String)

    /// The latitude is past ±90°.
    case latitudeOutOfRange(String)

    /// The longitude is past ±180°.
    case longitudeOutOfRange(String)

    /// The latitude is past ±90° but the pair would be in range the other way round: the
    /// longitude was probably typed first. Carries the latitude's and the longitude's text.
    case looksSwapped(latitude: String, longitude: String)

    /// The minutes of a value are 60 or more.
    case minutesOutOfRange(String)

    /// The seconds of a value are 60 or more.
    case secondsOutOfRange(String)

    /// Minutes or seconds carry a sign; only the degrees may.
    case signedMinutesOrSeconds(String)

    /// Degrees or minutes with a fraction are followed by a smaller unit (`48.5°30'`).
    case fractionBeforeSmallerUnit(String)

    /// A latitude carries E or W, or a longitude carries N or S (`2S` as a longitude).
    case hemisphereOnWrongAxis(String)

    /// A value has both a sign and a hemisphere letter (`-48S`).
    case signWithHemisphere(String)

    /// A `geo:` URI names a coordinate reference system other than WGS84.
    case unsupportedCoordinateSystem(String)

    /// A `geo:` URI breaks the RFC 5870 syntax (an empty part, a malformed parameter).
    case malformedGeoURI(String)

    /// A sentence naming the problem and the offending text.
    public var description: String {
        switch self {
        case .empty:
            return "no coordinate given (the input is empty)"
        case .invalidNumber(let text):
            return "'\(text)' is not a plain decimal number"
                + " (use digits with at most one decimal point; no exponent, NaN or infinity)"
        case .unexpectedText(let text):
            return "unexpected '\(text)' where a latitude or longitude was expected"
        case .trailingText(let text):
            return "unexpected trailing text '\(text)' after the latitude and longitude"
        case .missingLongitude(let text):
            return "only one value in '\(text)': the longitude is missing"
        case .tooManyValues(let text):
            return "more than two values in '\(text)' (expected a latitude and a longitude)"
        case .latitudeOutOfRange(let text):
            return "latitude \(text) is out of range (must be between -90 and 90)"
        case .longitudeOutOfRange(let text):
            return "longitude \(text) is out of range (must be between -180 and 180)"
        case .looksSwapped(let latitude, let longitude):
            return "latitude \(latitude) is out of range (must be between -90 and 90); "
                + "latitude comes first: did you mean '\(longitude) \(latitude)'?"
        case .minutesOutOfRange(let text):
            return "minutes in \(text) are out of range (must be less than 60)"
        case .secondsOutOfRange(let text):
            return "seconds in \(text) are out of range (must be less than 60)"
        case .signedMinutesOrSeconds(let text):
            return "minutes and seconds in \(text) must not have a sign"
                + " (put the sign on the degrees)"
        case .fractionBeforeSmallerUnit(let text):
            return "in \(text) only the last part may have a fraction"
                + " (degrees or minutes with a decimal point cannot be followed by smaller units)"
        case .hemisphereOnWrongAxis(let text):
            return "\(text) has a hemisphere letter on the wrong axis"
                + " (latitude takes N or S, longitude takes E or W)"
        case .signWithHemisphere(let text):
            return "\(text) has both a sign and a hemisphere letter (use one or the other)"
        case .unsupportedCoordinateSystem(let text):
            return "coordinate reference system '\(text)' is not supported (only wgs84)"
        case .malformedGeoURI(let text):
            return "malformed geo: URI '\(text)' (expected geo:LAT,LON[,ALT][;crs=wgs84][;u=N])"
        }
    }
}
