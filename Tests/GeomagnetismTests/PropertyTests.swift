import Foundation
import Geomagnetism
import Testing
import TestSupport

/// Randomised checks against an independently written evaluation (`ReferencePotential`) and
/// of the secular-variation formulas against finite differences in time.
@Suite("Randomised property and differential tests", .timeLimit(.minutes(5)))
struct PropertyTests {
    static let model = MagneticModel.wmm2025

    /// A random evaluation point.
    struct Point {
        var latitude: Double
        var longitude: Double
        var height: Double
        var year: Double

        func field(year: Double? = nil) -> MagneticField {
            PropertyTests.model.field(
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                heightAboveEllipsoidKilometers: height, decimalYear: year ?? self.year)
        }

        var label: String { "lat \(latitude) lon \(longitude) h \(height) t \(year)" }
    }

    /// Random points, area-uniform, avoiding the last 0.5° at the poles (the oracle divides by
    /// cos φ′), heights over WMM's −1…850 km, dates over the validity interval.
    static func randomPoints(count: Int, seed: UInt64) -> [Point] {
        var generator = SeededGenerator(seed: seed)
        let sinLatitudeLimit = sin(89.5 * .pi / 180)
        return (0..<count).map { _ in
            let sinLatitude = Double.random(
                in: -sinLatitudeLimit...sinLatitudeLimit, using: &generator)
            return Point(
                latitude: asin(sinLatitude) * 180 / .pi,
                longitude: Double.random(in: -180..<180, using: &generator),
                height: Double.random(in: -1...850, using: &generator),
                year: Double.random(in: 2025...2030, using: &generator))
        }
    }

    @Test("X, Y, Z match −∇V of an independent closed-form evaluation")
    func matchesReferencePotential() throws {
        let reference = ReferencePotential(
            coefficients: try CoefficientFile.wmm2025().coefficients, epochYear: 2025.0)
        // Measured agreement is about 1e-6 nT (the oracle's finite differences and rounding).
        let toleranceNanotesla = 1e-4
        var worst = 0.0
        for point in Self.randomPoints(count: 60, seed: 20_250) {
            let field = point.field()
            let expected = reference.field(
                latitudeDegrees: point.latitude, longitudeDegrees: point.longitude,
                heightKilometers: point.height, year: point.year)
            worst = Swift.max(
                worst, Swift.abs(field.northNanotesla - expected.north),
                Swift.abs(field.eastNanotesla - expected.east),
                Swift.abs(field.downNanotesla - expected.down))
        }
        #expect(worst < toleranceNanotesla, "worst component difference \(worst) nT")
    }

    @Test("rates match finite differences of the elements over time")
    func ratesMatchFiniteDifferences() {
        let stepYears = 1e-3
        for point in Self.randomPoints(count: 200, seed: 7) {
            let before = point.field(year: point.year - stepYears)
            let after = point.field(year: point.year + stepYears)
            /// Central difference of an element, per year; angles wrapped for declination.
            func rate(_ value: (MagneticField) -> Double, wrap: Bool = false) -> Double {
                let difference = value(after) - value(before)
                return (wrap ? remainder(difference, 360) : difference) / (2 * stepYears)
            }
            let rates = point.field().secularVariation
            // X, Y, Z are linear in time, so their differences are exact up to rounding.
            let linear = 1e-6
            #expect(Swift.abs(rate(\.northNanotesla) - rates.northNanoteslaPerYear) < linear)
            #expect(Swift.abs(rate(\.eastNanotesla) - rates.eastNanoteslaPerYear) < linear)
            #expect(Swift.abs(rate(\.downNanotesla) - rates.downNanoteslaPerYear) < linear)
            // H, F, D and I are not linear; the central difference is good to O(step²).
            let horizontal = rate(\.horizontalIntensityNanotesla)
            let total = rate(\.totalIntensityNanotesla)
            let declination = rate(\.declinationDegrees, wrap: true)
            let inclination = rate(\.inclinationDegrees)
            let nonlinear = 1e-4
            #expect(
                Swift.abs(horizontal - rates.horizontalIntensityNanoteslaPerYear) < nonlinear,
                "\(point.label)")
            #expect(
                Swift.abs(total - rates.totalIntensityNanoteslaPerYear) < nonlinear,
                "\(point.label)")
            // Relative to the rate itself: near the dip poles D turns quickly.
            let declinationRate = rates.declinationDegreesPerYear
            #expect(
                Swift.abs(declination - declinationRate)
                    < 1e-6 * Swift.max(1, Swift.abs(declinationRate)),
                "\(point.label)")
            #expect(
                Swift.abs(inclination - rates.inclinationDegreesPerYear) < 1e-6,
                "\(point.label)")
        }
    }

    @Test("H, F, D and I are consistent with X, Y, Z")
    func elementsAreConsistent() {
        for point in Self.randomPoints(count: 200, seed: 99) {
            let field = point.field()
            let x = field.northNanotesla, y = field.eastNanotesla, z = field.downNanotesla
            let h = field.horizontalIntensityNanotesla
            let f = field.totalIntensityNanotesla
            #expect(Swift.abs(h - (x * x + y * y).squareRoot()) < 1e-9)
            #expect(Swift.abs(f - (x * x + y * y + z * z).squareRoot()) < 1e-9)
            let declination = field.declinationDegrees * .pi / 180
            #expect(Swift.abs(h * cos(declination) - x) < 1e-8)
            #expect(Swift.abs(h * sin(declination) - y) < 1e-8)
            let inclination = field.inclinationDegrees * .pi / 180
            #expect(Swift.abs(tan(inclination) * h - z) < 1e-6 * Swift.abs(z) + 1e-8)
            #expect(field.declinationDegrees > -180 && field.declinationDegrees <= 180)
        }
    }
}
