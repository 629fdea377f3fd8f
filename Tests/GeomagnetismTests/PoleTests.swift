import Foundation
import Geomagnetism
import Testing

/// The poles, where cos φ′ = 0: results must be finite and continuous with nearby latitudes,
/// and the horizontal field must be one fixed vector seen from different meridians.
@Suite("Poles and degenerate input", .timeLimit(.minutes(5)))
struct PoleTests {
    static let model = MagneticModel.wmm2025
    static let year = 2026.5
    static let longitudes = [-179.0, -135.0, -60.0, 0.0, 37.5, 90.0, 180.0]

    static func field(
        _ latitude: Double, _ longitude: Double, height: Double = 0
    ) -> MagneticField {
        model.field(
            latitudeDegrees: latitude, longitudeDegrees: longitude,
            heightAboveEllipsoidKilometers: height, decimalYear: year)
    }

    static func allFinite(_ field: MagneticField) -> Bool {
        let rates = field.secularVariation
        return [
            field.northNanotesla, field.eastNanotesla, field.downNanotesla,
            field.horizontalIntensityNanotesla, field.totalIntensityNanotesla,
            field.declinationDegrees, field.inclinationDegrees,
            rates.northNanoteslaPerYear, rates.eastNanoteslaPerYear, rates.downNanoteslaPerYear,
            rates.horizontalIntensityNanoteslaPerYear, rates.totalIntensityNanoteslaPerYear,
            rates.declinationDegreesPerYear, rates.inclinationDegreesPerYear,
            field.declinationUncertaintyDegrees,
        ].allSatisfy(\.isFinite)
    }

    @Test("results at ±90° are finite", arguments: [90.0, -90.0])
    func finiteAtPole(latitude: Double) {
        for longitude in Self.longitudes {
            for height in [-1.0, 0.0, 100.0, 850.0] {
                let field = Self.field(latitude, longitude, height: height)
                #expect(Self.allFinite(field), "lat \(latitude) lon \(longitude) h \(height)")
                #expect(field.gridVariationDegrees?.isFinite == true)
            }
        }
    }

    @Test("the pole is continuous with 89.9999° along the same meridian", arguments: [90.0, -90.0])
    func continuousAtPole(latitude: Double) {
        // 1e-4° of latitude is about 11 m; the field changes by a few nT per km here.
        let nearby = latitude > 0 ? 89.9999 : -89.9999
        let toleranceNanotesla = 0.5
        for longitude in Self.longitudes {
            let pole = Self.field(latitude, longitude)
            let near = Self.field(nearby, longitude)
            let totalDifference = pole.totalIntensityNanotesla - near.totalIntensityNanotesla
            #expect(Swift.abs(totalDifference) < toleranceNanotesla)
            #expect(Swift.abs(pole.northNanotesla - near.northNanotesla) < toleranceNanotesla)
            #expect(Swift.abs(pole.eastNanotesla - near.eastNanotesla) < toleranceNanotesla)
            #expect(Swift.abs(pole.downNanotesla - near.downNanotesla) < toleranceNanotesla)
            let closer = Self.field(latitude > 0 ? 90 - 1e-9 : -90 + 1e-9, longitude)
            #expect(Swift.abs(pole.northNanotesla - closer.northNanotesla) < 1e-3)
            #expect(Swift.abs(pole.eastNanotesla - closer.eastNanotesla) < 1e-3)
        }
    }

    @Test("at a pole H, Z and F do not depend on longitude and GV is one angle")
    func poleIsOnePoint() throws {
        for latitude in [90.0, -90.0] {
            let reference = Self.field(latitude, 0)
            let referenceGridVariation = try #require(reference.gridVariationDegrees)
            for longitude in Self.longitudes {
                let field = Self.field(latitude, longitude)
                let horizontal = field.horizontalIntensityNanotesla
                #expect(Swift.abs(horizontal - reference.horizontalIntensityNanotesla) < 1e-8)
                #expect(Swift.abs(field.downNanotesla - reference.downNanotesla) < 1e-8)
                let total = field.totalIntensityNanotesla
                #expect(Swift.abs(total - reference.totalIntensityNanotesla) < 1e-8)
                // Grid north is the same direction from every meridian at the pole, so grid
                // variation (D − λ in the north, D + λ in the south) must not change.
                let gridVariation = try #require(field.gridVariationDegrees)
                let difference = remainder(gridVariation - referenceGridVariation, 360)
                #expect(Swift.abs(difference) < 1e-9, "lat \(latitude) lon \(longitude)")
            }
        }
    }

    @Test("latitudes beyond ±90° are clamped to the pole")
    func clampsLatitude() {
        #expect(Self.field(90.5, 10) == Self.field(90, 10))
        #expect(Self.field(-123, 10) == Self.field(-90, 10))
    }

    @Test("longitude is periodic")
    func periodicLongitude() {
        let a = Self.field(48.8, -170)
        let b = Self.field(48.8, 190)
        #expect(Swift.abs(a.declinationDegrees - b.declinationDegrees) < 1e-9)
        #expect(Swift.abs(a.totalIntensityNanotesla - b.totalIntensityNanotesla) < 1e-8)
    }

    @Test("non-finite input gives NaN values, blackout and no grid variation, without trapping")
    func nonFiniteInput() {
        let inputs: [(Double, Double, Double, Double)] = [
            (.nan, 0, 0, 2026), (0, .nan, 0, 2026), (0, .infinity, 0, 2026),
            (0, 0, .nan, 2026), (70, 0, 0, .nan), (.infinity, 0, 0, 2026),
        ]
        for (latitude, longitude, height, year) in inputs {
            let field = Self.model.field(
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                heightAboveEllipsoidKilometers: height, decimalYear: year)
            if latitude.isInfinite {
                // +∞ clamps to the north pole, which is a real place.
                #expect(field.totalIntensityNanotesla.isFinite)
                continue
            }
            #expect(field.totalIntensityNanotesla.isNaN)
            #expect(field.zone == .blackout)
            if latitude.isNaN { #expect(field.gridVariationDegrees == nil) }
            if year.isNaN { #expect(!field.isWithinValidity) }
        }
    }
}
