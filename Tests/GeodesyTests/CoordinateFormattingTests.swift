import Geodesy
import TestSupport
import Testing

/// A coordinate and the text one format must give for it.
struct FormattedCoordinate: Sendable, CustomTestStringConvertible {
    var latitudeDegrees: Double
    var longitudeDegrees: Double
    var fractionDigits: Int
    var expected: String

    var coordinate: Coordinate {
        Coordinate(uncheckedLatitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
    }

    var testDescription: String { expected }
}

@Suite("Coordinate formatting", .timeLimit(.minutes(5)))
struct CoordinateFormattingTests {
    /// Hand-computed: 48°51'30.2" = 48 + 51/60 + 30.2/3600 = 48.858388888…
    static let eiffelLatitude = 48 + 51.0 / 60 + 30.2 / 3600
    static let eiffelLongitude = 2.2945

    static let degreesMinutesSeconds: [FormattedCoordinate] = [
        .init(
            latitudeDegrees: eiffelLatitude, longitudeDegrees: eiffelLongitude, fractionDigits: 1,
            expected: "48°51'30.2\"N 2°17'40.2\"E"),
        .init(
            latitudeDegrees: -(33 + 51.0 / 60 + 24.5 / 3600),
            longitudeDegrees: 151 + 12.0 / 60 + 55.1 / 3600, fractionDigits: 1,
            expected: "33°51'24.5\"S 151°12'55.1\"E"),
        // Minutes and whole seconds are padded to two digits, as map apps print them.
        .init(
            latitudeDegrees: 51 + 30.0 / 60 + 26.5 / 3600,
            longitudeDegrees: -(7.0 / 60 + 39.0 / 3600),
            fractionDigits: 1, expected: "51°30'26.5\"N 0°07'39.0\"W"),
        .init(
            latitudeDegrees: 0, longitudeDegrees: 0, fractionDigits: 1,
            expected: "0°00'00.0\"N 0°00'00.0\"E"),
        // Zero after rounding takes N and E, never S or W.
        .init(
            latitudeDegrees: -0.0, longitudeDegrees: -1e-9, fractionDigits: 1,
            expected: "0°00'00.0\"N 0°00'00.0\"E"),
        .init(
            latitudeDegrees: -90, longitudeDegrees: -180, fractionDigits: 1,
            expected: "90°00'00.0\"S 180°00'00.0\"W"),
        // Rounding carries: 59.96" → next minute, next degree.
        .init(
            latitudeDegrees: 10 + 59.0 / 60 + 59.96 / 3600,
            longitudeDegrees: 179 + 59.0 / 60 + 59.96 / 3600, fractionDigits: 1,
            expected: "11°00'00.0\"N 180°00'00.0\"E"),
        .init(
            latitudeDegrees: -(10 + 30.0 / 60 + 59.96 / 3600), longitudeDegrees: 2 + 59.96 / 3600,
            fractionDigits: 1, expected: "10°31'00.0\"S 2°01'00.0\"E"),
        // With two digits the same seconds do not carry.
        .init(
            latitudeDegrees: 10 + 59.0 / 60 + 59.96 / 3600, longitudeDegrees: 2 + 59.96 / 3600,
            fractionDigits: 2, expected: "10°59'59.96\"N 2°00'59.96\"E"),
        // No fraction digits: 30.2" → 30", 40.2" → 40"; 59.6" carries.
        .init(
            latitudeDegrees: eiffelLatitude, longitudeDegrees: 3 + 59.0 / 60 + 59.6 / 3600,
            fractionDigits: 0, expected: "48°51'30\"N 4°00'00\"E"),
        .init(
            latitudeDegrees: eiffelLatitude, longitudeDegrees: eiffelLongitude, fractionDigits: 3,
            expected: "48°51'30.200\"N 2°17'40.200\"E"),
        // Out-of-range digit counts are clamped to 0 and 9.
        .init(
            latitudeDegrees: eiffelLatitude, longitudeDegrees: eiffelLongitude, fractionDigits: -4,
            expected: "48°51'30\"N 2°17'40\"E"),
        .init(
            latitudeDegrees: 1.0 / 3600, longitudeDegrees: 0, fractionDigits: 40,
            expected: "0°00'01.000000000\"N 0°00'00.000000000\"E"),
        // Non-finite values (only through the unchecked initializer) print without trapping.
        .init(
            latitudeDegrees: .nan, longitudeDegrees: .infinity, fractionDigits: 1,
            expected: "nan inf"),
    ]

    @Test("degrees, minutes and seconds", arguments: degreesMinutesSeconds)
    func formatsDegreesMinutesSeconds(_ form: FormattedCoordinate) {
        #expect(
            form.coordinate.formattedDegreesMinutesSeconds(
                secondsFractionDigits: form.fractionDigits)
                == form.expected)
    }

    @Test("seconds default to one fraction digit")
    func defaultSecondsDigits() {
        let eiffel = Coordinate(
            uncheckedLatitudeDegrees: Self.eiffelLatitude, longitudeDegrees: Self.eiffelLongitude)
        #expect(eiffel.formattedDegreesMinutesSeconds() == "48°51'30.2\"N 2°17'40.2\"E")
    }

    static let degreesDecimalMinutes: [FormattedCoordinate] = [
        // 48 + 51.503/60, 2 + 17.67/60 = 2.2945
        .init(
            latitudeDegrees: 48 + 51.503 / 60, longitudeDegrees: eiffelLongitude, fractionDigits: 3,
            expected: "48°51.503'N 2°17.670'E"),
        .init(
            latitudeDegrees: -(33 + 51.41 / 60), longitudeDegrees: -(70 + 5.0 / 60),
            fractionDigits: 2,
            expected: "33°51.41'S 70°05.00'W"),
        // 59.9996' carries into the next degree at three digits.
        .init(
            latitudeDegrees: 10 + 59.9996 / 60, longitudeDegrees: 0, fractionDigits: 3,
            expected: "11°00.000'N 0°00.000'E"),
        .init(
            latitudeDegrees: 48.5, longitudeDegrees: -2.25, fractionDigits: 0,
            expected: "48°30'N 2°15'W"),
    ]

    @Test("degrees and decimal minutes", arguments: degreesDecimalMinutes)
    func formatsDegreesDecimalMinutes(_ form: FormattedCoordinate) {
        #expect(
            form.coordinate.formattedDegreesDecimalMinutes(
                minutesFractionDigits: form.fractionDigits)
                == form.expected)
    }

    static let decimals: [FormattedCoordinate] = [
        .init(
            latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, fractionDigits: 4,
            expected: "48.8584 2.2945"),
        .init(
            latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, fractionDigits: 6,
            expected: "48.858400 2.294500"),
        .init(
            latitudeDegrees: -33.8568, longitudeDegrees: 151.2153, fractionDigits: 6,
            expected: "-33.856800 151.215300"),
        .init(
            latitudeDegrees: 0.000_000_4, longitudeDegrees: -0.000_000_6, fractionDigits: 6,
            expected: "0.000000 -0.000001"),
        // A value that rounds to zero prints no minus sign.
        .init(
            latitudeDegrees: -0.000_000_1, longitudeDegrees: -0.0, fractionDigits: 6,
            expected: "0.000000 0.000000"),
        // Halfway rounds away from zero (48.5 and -2.5 are exact in binary).
        .init(latitudeDegrees: 48.5, longitudeDegrees: -2.5, fractionDigits: 0, expected: "49 -3"),
        .init(
            latitudeDegrees: 89.99999996, longitudeDegrees: -179.99999996, fractionDigits: 7,
            expected: "90.0000000 -180.0000000"),
        .init(
            latitudeDegrees: 1, longitudeDegrees: 2, fractionDigits: 99,
            expected: "1.000000000000 2.000000000000"),
        .init(
            latitudeDegrees: .nan, longitudeDegrees: -.infinity, fractionDigits: 6,
            expected: "nan -inf"),
    ]

    @Test("decimal degrees", arguments: decimals)
    func formatsDecimal(_ form: FormattedCoordinate) {
        #expect(
            form.coordinate.formattedDecimal(fractionDigits: form.fractionDigits) == form.expected)
    }

    @Test("geo: URI")
    func formatsGeoURI() {
        let eiffel = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
        #expect(eiffel.geoURI(fractionDigits: 4) == "geo:48.8584,2.2945")
        #expect(eiffel.geoURI() == "geo:48.858400,2.294500")
        let sydney = Coordinate(uncheckedLatitudeDegrees: -33.8568, longitudeDegrees: 151.2153)
        #expect(sydney.geoURI(fractionDigits: 4) == "geo:-33.8568,151.2153")
    }

    /// Fixed corners plus seeded random coordinates over the whole globe.
    static let roundTripCoordinates: [Coordinate] = {
        var corners: [Coordinate] = [
            .init(uncheckedLatitudeDegrees: 0, longitudeDegrees: 0),
            .init(uncheckedLatitudeDegrees: 90, longitudeDegrees: 180),
            .init(uncheckedLatitudeDegrees: -90, longitudeDegrees: -180),
            .init(uncheckedLatitudeDegrees: -0.000_01, longitudeDegrees: 0.000_01),
            .init(uncheckedLatitudeDegrees: 89.999_999_9, longitudeDegrees: -179.999_999_9),
            .init(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
        ]
        var random = SeededGenerator(seed: 0x5EED_0F_C00D)
        for _ in 0..<300 {
            corners.append(
                .init(
                    uncheckedLatitudeDegrees: .random(in: -90...90, using: &random),
                    longitudeDegrees: .random(in: -180...180, using: &random)))
        }
        return corners
    }()

    /// Whether both values of two coordinates are within `tolerance` degrees.
    static func isClose(_ a: Coordinate, _ b: Coordinate, tolerance: Double) -> Bool {
        (a.latitudeDegrees - b.latitudeDegrees).magnitude <= tolerance
            && (a.longitudeDegrees - b.longitudeDegrees).magnitude <= tolerance
    }

    /// Half a unit of the last printed digit, plus room for Double round-off.
    static func halfUnit(_ unitDegrees: Double) -> Double {
        unitDegrees / 2 + 1e-12
    }

    @Test("format then parse comes back within half the last printed digit")
    func roundTrips() throws {
        for coordinate in Self.roundTripCoordinates {
            let seconds = coordinate.formattedDegreesMinutesSeconds()
            let fromSeconds = try Coordinate(parsing: seconds)
            #expect(
                Self.isClose(fromSeconds, coordinate, tolerance: Self.halfUnit(0.1 / 3600)),
                "\(coordinate) → \(seconds) → \(fromSeconds)")

            let minutes = coordinate.formattedDegreesDecimalMinutes()
            let fromMinutes = try Coordinate(parsing: minutes)
            #expect(
                Self.isClose(fromMinutes, coordinate, tolerance: Self.halfUnit(0.001 / 60)),
                "\(coordinate) → \(minutes) → \(fromMinutes)")

            let decimal = coordinate.formattedDecimal()
            let fromDecimal = try Coordinate(parsing: decimal)
            #expect(
                Self.isClose(fromDecimal, coordinate, tolerance: Self.halfUnit(1e-6)),
                "\(coordinate) → \(decimal) → \(fromDecimal)")

            let uri = coordinate.geoURI()
            let fromURI = try Coordinate(parsing: uri)
            #expect(
                Self.isClose(fromURI, coordinate, tolerance: Self.halfUnit(1e-6)),
                "\(coordinate) → \(uri) → \(fromURI)")
        }
    }

    @Test("parse then format gives back the canonical text")
    func canonicalTextIsStable() throws {
        for text in [
            "48°51'30.2\"N 2°17'40.2\"E", "33°51'24.5\"S 151°12'55.1\"E",
            "0°07'39.0\"S 0°00'00.1\"W",
        ] {
            #expect(try Coordinate(parsing: text).formattedDegreesMinutesSeconds() == text)
        }
    }
}

// Compass points are a formatting concern of bearings, so their tests live with formatting.
@Suite("Compass point", .timeLimit(.minutes(5)))
struct CompassPointTests {
    @Test(
        "bearings fall into 22.5° sectors, a boundary going clockwise",
        arguments: [
            (0.0, "N"), (11.24, "N"), (11.25, "NNE"), (22.5, "NNE"), (33.74, "NNE"), (33.75, "NE"),
            (45, "NE"), (67.5, "ENE"), (90, "E"), (101.25, "ESE"), (135, "SE"), (157.5, "SSE"),
            (180, "S"), (202.5, "SSW"), (225, "SW"), (247.5, "WSW"), (270, "W"), (292.5, "WNW"),
            (315, "NW"), (337.5, "NNW"), (348.74, "NNW"), (348.75, "N"), (359.99, "N"), (360, "N"),
            // Any angle is wrapped first.
            (-11.25, "N"), (-11.26, "NNW"), (-90, "W"), (765, "NE"), (-0.0, "N"), (1e-20, "N"),
            (-1e-20, "N"), (360.0.nextDown, "N"), (1e20, "W"),
        ])
    func sector(bearingDegrees: Double, abbreviation: String) {
        #expect(CompassPoint(bearingDegrees: bearingDegrees)?.abbreviation == abbreviation)
    }

    @Test(
        "a non-finite bearing has no compass point", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(bearingDegrees: Double) {
        #expect(CompassPoint(bearingDegrees: bearingDegrees) == nil)
    }

    @Test("all sixteen points in order, with their names and centres")
    func names() {
        let abbreviations = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
            "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        let spokenNames = [
            "north", "north-northeast", "northeast", "east-northeast",
            "east", "east-southeast", "southeast", "south-southeast",
            "south", "south-southwest", "southwest", "west-southwest",
            "west", "west-northwest", "northwest", "north-northwest",
        ]
        #expect(CompassPoint.allCases.map(\.abbreviation) == abbreviations)
        #expect(CompassPoint.allCases.map(\.spokenName) == spokenNames)
        #expect(CompassPoint.allCases.map(\.description) == abbreviations)
        #expect(CompassPoint.sectorWidthDegrees == 22.5)
        for (index, point) in CompassPoint.allCases.enumerated() {
            #expect(point.centerBearingDegrees == Double(index) * 22.5)
            #expect(CompassPoint(bearingDegrees: point.centerBearingDegrees) == point)
        }
    }
}
