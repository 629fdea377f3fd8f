import Geomagnetism
import Testing

/// Blackout and caution zones (MIL-PRF-89500B, H < 2000 nT and H < 6000 nT) and the model's
/// validity interval.
@Suite("Compass zones and validity", .timeLimit(.minutes(5)))
struct ZoneAndValidityTests {
    static let model = MagneticModel.wmm2025

    @Test("89°N 121°W, H ≈ 1504 nT, is in the northern blackout zone")
    func northBlackout() {
        let field = Self.model.field(
            latitudeDegrees: 89, longitudeDegrees: -121, heightAboveEllipsoidKilometers: 28,
            decimalYear: 2025.0)
        #expect(Swift.abs(field.horizontalIntensityNanotesla - 1504.3) < 0.1)
        #expect(field.zone == .blackout)
    }

    @Test("80°N 96°W at 48 km, H ≈ 2164 nT, is in the caution zone")
    func caution() {
        let field = Self.model.field(
            latitudeDegrees: 80, longitudeDegrees: -96, heightAboveEllipsoidKilometers: 48,
            decimalYear: 2025.0)
        #expect(Swift.abs(field.horizontalIntensityNanotesla - 2164.3) < 0.1)
        #expect(field.zone == .caution)
    }

    @Test("the southern blackout zone lies around the south dip pole")
    func southBlackout() {
        // South dip pole at about 63.8°S 135.0°E in 2025-2030.
        let field = Self.model.field(
            latitudeDegrees: -63.8, longitudeDegrees: 135, heightAboveEllipsoidKilometers: 0,
            decimalYear: 2026.0)
        #expect(field.zone == .blackout)
    }

    @Test("Paris is normal")
    func paris() {
        let field = Self.model.field(
            latitudeDegrees: 48.8566, longitudeDegrees: 2.3522, heightAboveEllipsoidKilometers: 0,
            decimalYear: 2026.5)
        #expect(field.zone == .normal)
        #expect(field.gridVariationDegrees == nil)
    }

    @Test(
        "zone thresholds",
        arguments: [
            (0.0, CompassZone.blackout), (1999.999, .blackout), (2000, .caution),
            (5999.999, .caution), (6000, .normal), (50_000, .normal), (.nan, .blackout),
            (.infinity, .normal),
        ])
    func thresholds(horizontalIntensityNanotesla: Double, zone: CompassZone) {
        #expect(CompassZone(horizontalIntensityNanotesla: horizontalIntensityNanotesla) == zone)
    }

    @Test(
        "dates outside 2025.0–2030.0 are flagged but still computed",
        arguments: [2024.9, 2030.1, 1990.0])
    func outsideValidity(year: Double) {
        let field = Self.model.field(
            latitudeDegrees: 48.8566, longitudeDegrees: 2.3522, heightAboveEllipsoidKilometers: 0,
            decimalYear: year)
        #expect(!field.isWithinValidity)
        #expect(!Self.model.isValid(decimalYear: year))
        #expect(field.totalIntensityNanotesla.isFinite && field.declinationDegrees.isFinite)
    }

    @Test("the ends of the interval are valid", arguments: [2025.0, 2027.3, 2030.0])
    func insideValidity(year: Double) {
        let field = Self.model.field(
            latitudeDegrees: 48.8566, longitudeDegrees: 2.3522, heightAboveEllipsoidKilometers: 0,
            decimalYear: year)
        #expect(field.isWithinValidity)
    }

    @Test("extrapolation continues the linear secular variation")
    func extrapolationIsLinear() {
        let end = Self.model.field(
            latitudeDegrees: 48.8566, longitudeDegrees: 2.3522, heightAboveEllipsoidKilometers: 0,
            decimalYear: 2030.0)
        let after = Self.model.field(
            latitudeDegrees: 48.8566, longitudeDegrees: 2.3522, heightAboveEllipsoidKilometers: 0,
            decimalYear: 2030.1)
        let expectedNorth = end.northNanotesla + 0.1 * end.secularVariation.northNanoteslaPerYear
        #expect(Swift.abs(after.northNanotesla - expectedNorth) < 1e-6)
    }

    @Test("grid variation is defined from 55° poleward and wrapped to (−180, 180]")
    func gridVariationRange() throws {
        let year = 2026.0
        func field(_ latitude: Double, _ longitude: Double) -> MagneticField {
            Self.model.field(
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                heightAboveEllipsoidKilometers: 0, decimalYear: year)
        }
        #expect(field(54.999, 10).gridVariationDegrees == nil)
        #expect(field(-54.999, 10).gridVariationDegrees == nil)
        let north = field(55, 100)
        let northGV = try #require(north.gridVariationDegrees)
        #expect(Swift.abs(northGV - (north.declinationDegrees - 100)) < 1e-12)
        let south = field(-55, 100)
        let southGV = try #require(south.gridVariationDegrees)
        var expected = south.declinationDegrees + 100
        if expected > 180 { expected -= 360 }
        #expect(Swift.abs(southGV - expected) < 1e-12)
        for longitude in stride(from: -180.0, through: 180.0, by: 15) {
            for latitude in [60.0, 75.0, -60.0, -75.0] {
                let gv = try #require(field(latitude, longitude).gridVariationDegrees)
                #expect(gv > -180 && gv <= 180)
            }
        }
    }
}
