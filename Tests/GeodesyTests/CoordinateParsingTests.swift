import Geodesy
import TestSupport
import Testing

/// One accepted input and its hand-computed value.
struct AcceptedCoordinate: Sendable, CustomTestStringConvertible {
    var text: String
    var latitudeDegrees: Double
    var longitudeDegrees: Double

    var testDescription: String { text }
}

/// One rejected input, the error it must give and words its message must contain.
struct RejectedCoordinate: Sendable, CustomTestStringConvertible {
    var text: String
    var error: CoordinateParseError
    var messageWords: [String]

    var testDescription: String { text.isEmpty ? "(empty)" : text }
}

// Hand-computed values used below:
//   48°51'30.2"   = 48 + 51/60 + 30.2/3600   = 48.858388888888889
//   2°17'40.2"    = 2 + 17/60 + 40.2/3600    = 2.2945 exactly in decimal
//   48°51.503'    = 48 + 51.503/60           = 48.858383333333333
//   2°17.67'      = 2 + 17.67/60             = 2.2945
//   33°51'24.5"   = 33 + 51/60 + 24.5/3600   = 33.856805555555556
//   151°12'55.1"  = 151 + 12/60 + 55.1/3600  = 151.215305555555556
//   33°51.41'     = 33 + 51.41/60            = 33.856833333333333
//   70°40.0'      = 70 + 40/60               = 70.666666666666667
//   0°0'1"        = 1/3600                   = 0.000277777777777778
private let eiffelDMSLatitude = 48.858388888888889
private let eiffelDMLatitude = 48.858383333333333
private let eiffelLatitude = 48.8584
private let eiffelLongitude = 2.2945

@Suite("Coordinate parsing", .timeLimit(.minutes(5)))
struct CoordinateParsingTests {
    /// Far below the 0.05″ (1.4e-5°) the formats can express, far above Double round-off.
    static let toleranceDegrees = 1e-12

    static let decimalForms: [AcceptedCoordinate] = [
        .init(text: "48.8584 2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584,2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584, 2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584 ,2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "-33.8568 151.2153", latitudeDegrees: -33.8568, longitudeDegrees: 151.2153),
        .init(text: "+48.8584 +2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(
            text: " \t48.8584\u{00A0}2.2945\n", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48 2", latitudeDegrees: 48, longitudeDegrees: 2),
        .init(text: "-0.5 -0.25", latitudeDegrees: -0.5, longitudeDegrees: -0.25),
        .init(text: "90 180", latitudeDegrees: 90, longitudeDegrees: 180),
        .init(text: "-90,-180", latitudeDegrees: -90, longitudeDegrees: -180),
        .init(text: "048.8584 002.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: ".5 5.", latitudeDegrees: 0.5, longitudeDegrees: 5),
        .init(text: "48.8584° 2.2945°", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        // The Unicode minus sign that word processors substitute for a hyphen.
        .init(text: "48.8584 \u{2212}2.2945", latitudeDegrees: 48.8584, longitudeDegrees: -2.2945),
    ]

    static let hemisphereForms: [AcceptedCoordinate] = [
        .init(text: "48.8584N 2.2945E", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "N48.8584 E2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "N 48.8584 E 2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584 N, 2.2945 E", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584N,2.2945E", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "33.8568S 151.2153E", latitudeDegrees: -33.8568, longitudeDegrees: 151.2153),
        .init(text: "48.8584n 2.2945e", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "33.8568s 151.2153w", latitudeDegrees: -33.8568, longitudeDegrees: -151.2153),
        .init(text: "S 33.8568 W 151.2153", latitudeDegrees: -33.8568, longitudeDegrees: -151.2153),
        .init(text: "n48.8584 w2.2945", latitudeDegrees: 48.8584, longitudeDegrees: -2.2945),
        // Longitude first, as both letters say: swapped.
        .init(text: "2.2945E 48.8584N", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "151.2153W, 33.8568S", latitudeDegrees: -33.8568, longitudeDegrees: -151.2153),
        .init(text: "E2.2945 N48.8584", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        // A latitude with a leading letter ends there, so this E starts the longitude and is
        // not an exponent.
        .init(text: "N48.8584E2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584N2.2945E", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "33.8568S151.2153E", latitudeDegrees: -33.8568, longitudeDegrees: 151.2153),
        .init(text: "48°N 2°W", latitudeDegrees: 48, longitudeDegrees: -2),
        // A letter on one value only.
        .init(text: "48.8584N 2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48.8584 2.2945E", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "48 2.2945W", latitudeDegrees: 48, longitudeDegrees: -2.2945),
        .init(text: "-48.8584 2.2945W", latitudeDegrees: -48.8584, longitudeDegrees: -2.2945),
    ]

    static let degreesMinutesSecondsForms: [AcceptedCoordinate] = [
        .init(
            text: "48°51'30.2\"N 2°17'40.2\"E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48°51′30.2″N 2°17′40.2″E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48º51'30.2\"N 2º17'40.2\"E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48°51'30.2''N 2°17'40.2''E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48°51’30.2”N 2°17’40.2”E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48d51m30.2s N 2d17m40.2s E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48d51m30.2sN 2d17m40.2sE", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48D51M30.2S N 2D17M40.2S E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48 51 30.2 N 2 17 40.2 E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48 51 30.2 N 2 17 40.2", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48 51 30.2, 2 17 40.2", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48:51:30.2N 2:17:40.2E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48° 51' 30.2\" N, 2° 17' 40.2\" E", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "N 48°51'30.2\" E 2°17'40.2\"", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "-48°51'30.2\" -2°17'40.2\"", latitudeDegrees: -eiffelDMSLatitude,
            longitudeDegrees: -eiffelLongitude),
        .init(
            text: "33°51'24.5\"S 151°12'55.1\"E", latitudeDegrees: -33.856805555555556,
            longitudeDegrees: 151.215305555555556),
        .init(
            text: "2°17'40.2\"E 48°51'30.2\"N", latitudeDegrees: eiffelDMSLatitude,
            longitudeDegrees: eiffelLongitude),
        // The sign of the written degrees counts even when they are zero.
        .init(
            text: "-0°30'0\" 0°0'1\"", latitudeDegrees: -0.5,
            longitudeDegrees: 0.000277777777777778),
        .init(
            text: "-0 30 0, 0 0 1", latitudeDegrees: -0.5, longitudeDegrees: 0.000277777777777778),
        .init(text: "90°0'0\"S 180°0'0\"W", latitudeDegrees: -90, longitudeDegrees: -180),
    ]

    static let degreesDecimalMinutesForms: [AcceptedCoordinate] = [
        .init(
            text: "48°51.503'N 2°17.67'E", latitudeDegrees: eiffelDMLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48 51.503 N 2 17.670 E", latitudeDegrees: eiffelDMLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "N 48° 51.503 E 002° 17.670", latitudeDegrees: eiffelDMLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48:51.503N 2:17.67E", latitudeDegrees: eiffelDMLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "48°51.503' 2°17.67'", latitudeDegrees: eiffelDMLatitude,
            longitudeDegrees: eiffelLongitude),
        .init(
            text: "S 33° 51.41 W 70° 40.0", latitudeDegrees: -33.856833333333333,
            longitudeDegrees: -70.666666666666667),
    ]

    static let geoURIForms: [AcceptedCoordinate] = [
        .init(text: "geo:48.8584,2.2945", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "geo:48.8584,2.2945,35", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "geo:48.8584,2.2945,-12.5", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(text: "geo:48.8584,2.2945;u=10", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        .init(
            text: "geo:48.8584,2.2945;crs=wgs84", latitudeDegrees: 48.8584,
            longitudeDegrees: 2.2945),
        .init(
            text: "GEO:48.8584,2.2945;CRS=WGS84;U=10", latitudeDegrees: 48.8584,
            longitudeDegrees: 2.2945),
        .init(
            text: "geo:48.8584,2.2945,35;crs=wgs84;u=10.5;foo=bar;flag", latitudeDegrees: 48.8584,
            longitudeDegrees: 2.2945),
        .init(text: "geo:-33.8568,151.2153", latitudeDegrees: -33.8568, longitudeDegrees: 151.2153),
        // RFC 5870 §3.4.2: at a pole the longitude names no other point; it is kept as written.
        .init(text: "geo:90,-45", latitudeDegrees: 90, longitudeDegrees: -45),
        .init(text: "geo:-90,180", latitudeDegrees: -90, longitudeDegrees: 180),
        .init(text: "  geo:48.8584,2.2945  ", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        // A zoom query from a map app is ignored.
        .init(text: "geo:48.8584,2.2945?z=17", latitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
    ]

    @Test(
        "every accepted form gives the hand-computed value",
        arguments: decimalForms + hemisphereForms + degreesMinutesSecondsForms
            + degreesDecimalMinutesForms + geoURIForms)
    func accepted(_ form: AcceptedCoordinate) throws {
        let coordinate = try Coordinate(parsing: form.text)
        #expect(
            (coordinate.latitudeDegrees - form.latitudeDegrees).magnitude <= Self.toleranceDegrees,
            "latitude \(coordinate.latitudeDegrees), expected \(form.latitudeDegrees)")
        #expect(
            (coordinate.longitudeDegrees - form.longitudeDegrees).magnitude
                <= Self.toleranceDegrees,
            "longitude \(coordinate.longitudeDegrees), expected \(form.longitudeDegrees)")
    }

    @Test("the values of the Eiffel tower forms agree with the decimal form")
    func eiffelForms() throws {
        let decimal = try Coordinate(parsing: "48.8584 2.2945")
        let secondsForm = try Coordinate(parsing: "48°51'30.2\"N 2°17'40.2\"E")
        // 48.8584° is 48°51'30.24", so the rounded DMS form is 0.04" (1.1e-5°) off.
        #expect((decimal.latitudeDegrees - secondsForm.latitudeDegrees).magnitude < 0.05 / 3600)
        #expect(decimal.longitudeDegrees == eiffelLongitude)
        #expect(decimal.latitudeDegrees == eiffelLatitude)
    }

    static let rejections: [RejectedCoordinate] = [
        // Empty.
        .init(text: "", error: .empty, messageWords: ["empty"]),
        .init(text: " \t\n ", error: .empty, messageWords: ["empty"]),
        // Out of range.
        .init(
            text: "91 95", error: .latitudeOutOfRange("91"),
            messageWords: ["latitude 91 is out of range", "between -90 and 90"]),
        // Longitude first (issue 18, item 4): out of range as typed, in range swapped.
        .init(
            text: "151.2153 -33.8568", error: .looksSwapped(latitude: "151.2153", longitude: "-33.8568"),
            messageWords: ["latitude 151.2153 is out of range", "did you mean '-33.8568 151.2153'"]),
        .init(
            text: "91 0", error: .looksSwapped(latitude: "91", longitude: "0"), messageWords: ["did you mean '0 91'"]),
        .init(
            text: "-120,45", error: .looksSwapped(latitude: "-120", longitude: "45"),
            messageWords: ["latitude comes first"]),
        .init(
            text: "-90.0001 100", error: .latitudeOutOfRange("-90.0001"),
            messageWords: ["latitude -90.0001", "out of range"]),
        .init(
            text: "91N 0E", error: .latitudeOutOfRange("91N"), messageWords: ["latitude 91N"]),
        .init(
            text: "90°0'0.1\"N 0°E", error: .latitudeOutOfRange("90°0'0.1\"N"),
            messageWords: ["latitude", "out of range"]),
        // Plain digits too many for a Double become infinity: still out of range, not NaN.
        .init(
            text: "1" + String(repeating: "0", count: 400) + " 0",
            error: .latitudeOutOfRange("1" + String(repeating: "0", count: 400)),
            messageWords: ["latitude 1000", "out of range"]),
        .init(
            text: "0 181", error: .longitudeOutOfRange("181"),
            messageWords: ["longitude 181 is out of range", "between -180 and 180"]),
        .init(
            text: "0 -180.5", error: .longitudeOutOfRange("-180.5"),
            messageWords: ["longitude -180.5"]),
        .init(
            text: "geo:91,0", error: .latitudeOutOfRange("91"), messageWords: ["latitude 91"]),
        .init(
            text: "geo:0,-181", error: .longitudeOutOfRange("-181"),
            messageWords: ["longitude -181"]),
        // Not plain decimals: Double("1e999") would be +infinity.
        .init(
            text: "nan 2", error: .invalidNumber("nan"),
            messageWords: ["'nan'", "not a plain decimal number"]),
        .init(text: "48 inf", error: .invalidNumber("inf"), messageWords: ["'inf'"]),
        .init(text: "-inf 2", error: .invalidNumber("-inf"), messageWords: ["'-inf'"]),
        .init(text: "48 Infinity", error: .invalidNumber("Infinity"), messageWords: ["Infinity"]),
        .init(
            text: "1e999 2", error: .invalidNumber("1e999"),
            messageWords: ["'1e999'", "no exponent"]),
        .init(text: "48.8 1E5", error: .invalidNumber("1E5"), messageWords: ["'1E5'"]),
        .init(text: "48.8 2e-1", error: .invalidNumber("2e-1"), messageWords: ["'2e-1'"]),
        .init(text: "0x1p3 2", error: .invalidNumber("0x1p3"), messageWords: ["'0x1p3'"]),
        .init(text: "1.2.3 4", error: .invalidNumber("1.2.3"), messageWords: ["'1.2.3'"]),
        .init(text: "48.8abc 2", error: .invalidNumber("48.8abc"), messageWords: ["'48.8abc'"]),
        .init(text: "geo:nan,2", error: .invalidNumber("nan"), messageWords: ["'nan'"]),
        .init(text: "geo:1e999,0", error: .invalidNumber("1e999"), messageWords: ["'1e999'"]),
        // Trailing garbage.
        .init(
            text: "48.8 2.3 x", error: .trailingText("x"),
            messageWords: ["trailing text 'x'"]),
        .init(
            text: "48.8, 2.3, x", error: .trailingText(", x"), messageWords: ["trailing text"]),
        .init(text: "48.8,2.3,", error: .trailingText(","), messageWords: ["trailing"]),
        .init(
            text: "48°51'30\"N 2°17'40\"E !", error: .trailingText("!"),
            messageWords: ["trailing text '!'"]),
        // Unexpected text before the values are complete.
        .init(text: "hello", error: .unexpectedText("hello"), messageWords: ["unexpected 'hello'"]),
        .init(text: "48.8 # 2.3", error: .unexpectedText("#"), messageWords: ["unexpected '#'"]),
        .init(text: ",48.8 2.3", error: .unexpectedText(","), messageWords: ["unexpected ','"]),
        // geo: coordinate reference systems other than WGS84.
        .init(
            text: "geo:48.8584,2.2945;crs=nad27", error: .unsupportedCoordinateSystem("nad27"),
            messageWords: ["coordinate reference system 'nad27'", "not supported"]),
        .init(
            text: "geo:48.8584,2.2945;crs=EPSG:4326",
            error: .unsupportedCoordinateSystem("EPSG:4326"),
            messageWords: ["not supported"]),
        // Malformed geo: URIs.
        .init(text: "geo:", error: .malformedGeoURI("geo:"), messageWords: ["malformed geo: URI"]),
        .init(
            text: "geo:48.8,,2.3", error: .malformedGeoURI("geo:48.8,,2.3"),
            messageWords: ["malformed"]),
        .init(
            text: "geo:48.8,2.3;u=-5", error: .malformedGeoURI("geo:48.8,2.3;u=-5"),
            messageWords: ["malformed"]),
        .init(
            text: "geo:48.8,2.3;u=", error: .malformedGeoURI("geo:48.8,2.3;u="),
            messageWords: ["malformed"]),
        .init(
            text: "geo:48.8,2.3;=x", error: .malformedGeoURI("geo:48.8,2.3;=x"),
            messageWords: ["malformed"]),
        .init(
            text: "geo:48.8,2.3;crs=", error: .malformedGeoURI("geo:48.8,2.3;crs="),
            messageWords: ["malformed"]),
        .init(
            text: "geo:0,0?q=Eiffel+Tower", error: .malformedGeoURI("geo:0,0?q=Eiffel+Tower"),
            messageWords: ["malformed"]),
        // Minutes and seconds of 60 or more.
        .init(
            text: "48°60'N 2°E", error: .minutesOutOfRange("48°60'N"),
            messageWords: ["minutes in 48°60'N", "less than 60"]),
        .init(
            text: "48 60 N 2 0 E", error: .minutesOutOfRange("48 60 N"),
            messageWords: ["minutes"]),
        .init(
            text: "48:75.5N 2:0E", error: .minutesOutOfRange("48:75.5N"),
            messageWords: ["minutes"]),
        .init(
            text: "48°51'60\"N 2°E", error: .secondsOutOfRange("48°51'60\"N"),
            messageWords: ["seconds in 48°51'60\"N", "less than 60"]),
        .init(
            text: "0 0 0, 2 17 60.5", error: .secondsOutOfRange("2 17 60.5"),
            messageWords: ["seconds"]),
        // Signs on minutes or seconds.
        .init(
            text: "48°-51'N 2°E", error: .signedMinutesOrSeconds("48°-51'N"),
            messageWords: ["must not have a sign", "degrees"]),
        .init(
            text: "48°51'+30\" 2°", error: .signedMinutesOrSeconds("48°51'+30\""),
            messageWords: ["sign"]),
        .init(
            text: "48:-51 2:17", error: .signedMinutesOrSeconds("48:-51"),
            messageWords: ["sign"]),
        // A fraction before a smaller unit.
        .init(
            text: "48.5°30'N 2°E", error: .fractionBeforeSmallerUnit("48.5°30'N"),
            messageWords: ["only the last part may have a fraction"]),
        .init(
            text: "48°30.5'15\"N 2°E", error: .fractionBeforeSmallerUnit("48°30.5'15\"N"),
            messageWords: ["fraction"]),
        .init(
            text: "48.5:30 2:0", error: .fractionBeforeSmallerUnit("48.5:30"),
            messageWords: ["fraction"]),
        // Hemisphere letters on the wrong axis.
        .init(
            text: "48N 2S", error: .hemisphereOnWrongAxis("2S"),
            messageWords: ["2S", "wrong axis"]),
        .init(
            text: "48E 2E", error: .hemisphereOnWrongAxis("48E"), messageWords: ["wrong axis"]),
        .init(
            text: "N48 N2", error: .hemisphereOnWrongAxis("N2"), messageWords: ["wrong axis"]),
        .init(
            text: "48.8W 2.3", error: .hemisphereOnWrongAxis("48.8W"),
            messageWords: ["wrong axis"]),
        // A sign with a hemisphere letter.
        .init(
            text: "-48S 2E", error: .signWithHemisphere("-48S"),
            messageWords: ["-48S", "both a sign and a hemisphere letter"]),
        .init(
            text: "48N -2E", error: .signWithHemisphere("-2E"), messageWords: ["sign"]),
        .init(
            text: "+48N 2E", error: .signWithHemisphere("+48N"), messageWords: ["sign"]),
        .init(
            text: "S-33.8 151E", error: .signWithHemisphere("S-33.8"), messageWords: ["sign"]),
        // Only one value.
        .init(
            text: "48.8", error: .missingLongitude("48.8"),
            messageWords: ["only one value", "longitude is missing"]),
        .init(text: "48.8N", error: .missingLongitude("48.8N"), messageWords: ["only one value"]),
        .init(
            text: "48°51'30.2\"N", error: .missingLongitude("48°51'30.2\"N"),
            messageWords: ["longitude is missing"]),
        .init(text: "48.8,", error: .missingLongitude("48.8,"), messageWords: ["only one value"]),
        .init(
            text: "geo:48.8", error: .missingLongitude("geo:48.8"),
            messageWords: ["only one value"]),
        // More than two values.
        .init(
            text: "1 2 3", error: .tooManyValues("1 2 3"),
            messageWords: ["more than two values", "latitude and a longitude"]),
        .init(
            text: "1,2,3", error: .tooManyValues("1,2,3"), messageWords: ["more than two values"]),
        .init(
            text: "48.8 2.3 5 x", error: .tooManyValues("48.8 2.3 5 x"),
            messageWords: ["more than two"]),
        .init(
            text: "1 2 3 4 N", error: .tooManyValues("1 2 3 4 N"),
            messageWords: ["more than two"]),
        .init(
            text: "geo:1,2,3,4", error: .tooManyValues("geo:1,2,3,4"),
            messageWords: ["more than two"]),
    ]

    @Test(
        "every rejected form gives its own error and a message naming the problem",
        arguments: rejections)
    func rejected(_ rejection: RejectedCoordinate) {
        do {
            let coordinate = try Coordinate(parsing: rejection.text)
            Issue.record("accepted as \(coordinate)")
        } catch {
            #expect(error == rejection.error)
            for word in rejection.messageWords {
                #expect(
                    error.description.contains(word), "\"\(error.description)\" lacks \"\(word)\"")
            }
        }
    }

    @Test("the checked initializer accepts the limits and stores values as given")
    func checkedInitializerAccepts() throws {
        let northEast = try Coordinate(latitudeDegrees: 90, longitudeDegrees: 180)
        #expect(northEast.latitudeDegrees == 90 && northEast.longitudeDegrees == 180)
        let southWest = try Coordinate(latitudeDegrees: -90, longitudeDegrees: -180)
        #expect(southWest.latitudeDegrees == -90 && southWest.longitudeDegrees == -180)
    }

    @Test(
        "the checked initializer rejects non-finite and out-of-range values",
        arguments: [
            (Double.nan, 0.0, CoordinateParseError.invalidNumber("nan")),
            (0, .nan, .invalidNumber("nan")),
            (0, .infinity, .longitudeOutOfRange("inf")),
            (-.infinity, 0, .latitudeOutOfRange("-inf")),
            (90.000001, 0, .latitudeOutOfRange("90.000001")),
            (-91, 0, .latitudeOutOfRange("-91.0")),
            (0, 180.5, .longitudeOutOfRange("180.5")),
            (0, -181, .longitudeOutOfRange("-181.0")),
        ])
    func checkedInitializerRejects(
        latitudeDegrees: Double, longitudeDegrees: Double, expected: CoordinateParseError
    ) {
        #expect(throws: expected) {
            try Coordinate(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
        }
    }

    @Test("the unchecked initializer stores anything without trapping")
    func uncheckedInitializer() {
        let odd = Coordinate(uncheckedLatitudeDegrees: 100, longitudeDegrees: -540)
        #expect(odd.latitudeDegrees == 100 && odd.longitudeDegrees == -540)
        let nan = Coordinate(uncheckedLatitudeDegrees: .nan, longitudeDegrees: 0)
        #expect(nan.latitudeDegrees.isNaN)
    }

    @Test("random text made of coordinate characters never traps and never yields a bad value")
    func randomText() {
        // Pieces chosen to reach every branch of the lexer and grouper, including the
        // ambiguous ones (`s`, `e`, signs, marks without numbers).
        let pieces = [
            "0", "1", "5", "9", "48", "60", "90", "181", ".", "-", "+", "\u{2212}", " ", ",", ":",
            "°", "º", "'", "''", "\"", "′", "″", "N", "S", "E", "W", "n", "s", "e", "d", "m",
            "x", "nan", "inf", "geo:", ";", "crs=", "wgs84", "u=", "?", "q=", "#",
        ]
        var random = SeededGenerator(seed: 0xC0FF_EE00)
        for _ in 0..<5000 {
            let count = Int.random(in: 1...12, using: &random)
            let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            do {
                let coordinate = try Coordinate(parsing: text)
                #expect(
                    coordinate.latitudeDegrees.magnitude <= 90
                        && coordinate.longitudeDegrees.magnitude <= 180, "\(text)")
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("every error case has its own message")
    func messagesAreDistinct() {
        let text = "X"
        let errors: [CoordinateParseError] = [
            .empty, .invalidNumber(text), .unexpectedText(text), .trailingText(text),
            .missingLongitude(text), .tooManyValues(text), .latitudeOutOfRange(text),
            .longitudeOutOfRange(text), .minutesOutOfRange(text), .secondsOutOfRange(text),
            .signedMinutesOrSeconds(text), .fractionBeforeSmallerUnit(text),
            .hemisphereOnWrongAxis(text), .signWithHemisphere(text),
            .unsupportedCoordinateSystem(text), .malformedGeoURI(text), .looksSwapped(latitude: text, longitude: text),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(errors.dropFirst().allSatisfy { $0.description.contains(text) })
    }
}
