/// A position on the WGS84 ellipsoid: geodetic latitude and longitude in degrees.
///
/// The values are stored exactly as given: longitude is not wrapped, so 180 and −180 stay
/// distinct values for the same meridian, and at a pole the longitude is kept even though it
/// names no different point. Build one with ``init(latitudeDegrees:longitudeDegrees:)`` (checked),
/// ``init(parsing:)`` (from user text) or ``init(uncheckedLatitudeDegrees:longitudeDegrees:)``
/// (trusted values).
public struct Coordinate: Sendable, Hashable {
    /// The largest magnitude a latitude may have, in degrees (a pole).
    public static let latitudeLimitDegrees = 90.0

    /// The largest magnitude a longitude may have, in degrees (the antimeridian).
    public static let longitudeLimitDegrees = 180.0

    /// Geodetic latitude in degrees, positive north, in [−90, 90] when built by a checked
    /// initializer.
    public let latitudeDegrees: Double

    /// Longitude in degrees, positive east, in [−180, 180] when built by a checked initializer.
    public let longitudeDegrees: Double

    /// Creates a coordinate after checking that both values are numbers and in range.
    ///
    /// - Parameters:
    ///   - latitudeDegrees: Latitude in degrees, positive north; must be in [−90, 90].
    ///   - longitudeDegrees: Longitude in degrees, positive east; must be in [−180, 180].
    /// - Throws: ``CoordinateParseError/invalidNumber(_:)`` for NaN,
    ///   ``CoordinateParseError/latitudeOutOfRange(_:)`` or
    ///   ``CoordinateParseError/longitudeOutOfRange(_:)`` for a value past its limit, infinity
    ///   included.
    public init(latitudeDegrees: Double, longitudeDegrees: Double) throws(CoordinateParseError) {
        try Self.validate(
            latitudeDegrees: latitudeDegrees, latitudeText: String(describing: latitudeDegrees),
            longitudeDegrees: longitudeDegrees,
            longitudeText: String(describing: longitudeDegrees))
        self.init(uncheckedLatitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
    }

    /// Creates a coordinate without checking the values.
    ///
    /// For callers that already hold valid values, such as a position read back from our own
    /// state file after checking, or a constant. Nothing here traps on bad values, but the
    /// results of computations on an out-of-range or non-finite coordinate are unspecified.
    ///
    /// - Parameters:
    ///   - latitudeDegrees: Latitude in degrees, positive north, expected in [−90, 90].
    ///   - longitudeDegrees: Longitude in degrees, positive east, expected in [−180, 180].
    public init(uncheckedLatitudeDegrees latitudeDegrees: Double, longitudeDegrees: Double) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
    }

    /// Creates a coordinate from text a person typed or pasted, latitude first.
    ///
    /// Accepts decimal degrees (`48.8584 2.2945`, `48.8584, 2.2945`, `-33.8568 151.2153`),
    /// hemisphere letters before or after each value (`48.8584N 2.2945E`, `N48.8584 E2.2945`;
    /// a longitude-first pair with both letters, such as `2.2945E 48.8584N`, is swapped),
    /// degrees-minutes-seconds (`48°51'30.2"N 2°17'40.2"E`, `48d51m30.2s N`,
    /// `48 51 30.2 N 2 17 40.2 E`, `48:51:30.2N 2:17:40.2E`), degrees and decimal minutes
    /// (`48°51.503'N 2°17.67'E`, `N 48° 51.503 E 002° 17.670`) and RFC 5870 `geo:` URIs
    /// (`geo:48.8584,2.2945,35;u=10`). Numbers must be plain decimals: no exponent, hex, NaN or
    /// infinity.
    ///
    /// - Parameter text: The coordinate text; surrounding whitespace is ignored.
    /// - Throws: A ``CoordinateParseError`` naming the first problem found.
    public init(parsing text: String) throws(CoordinateParseError) {
        self = try CoordinateParser.parse(text)
    }

    /// Checks a latitude/longitude pair, reporting errors with the text the values came from.
    ///
    /// Infinity is reported as out of range rather than as a bad number: it is what a digit
    /// string too long for a `Double` (`1000…0`, 400 digits) becomes, and that text is a valid
    /// number, just far too large.
    static func validate(
        latitudeDegrees: Double, latitudeText: String,
        longitudeDegrees: Double, longitudeText: String
    ) throws(CoordinateParseError) {
        guard !latitudeDegrees.isNaN else {
            throw .invalidNumber(latitudeText)
        }
        guard !longitudeDegrees.isNaN else {
            throw .invalidNumber(longitudeText)
        }
        guard latitudeDegrees.magnitude <= latitudeLimitDegrees else {
            throw .latitudeOutOfRange(latitudeText)
        }
        guard longitudeDegrees.magnitude <= longitudeLimitDegrees else {
            throw .longitudeOutOfRange(longitudeText)
        }
    }
}
