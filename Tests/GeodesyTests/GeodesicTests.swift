import Foundation
import Testing
import TestSupport

@testable import Geodesy

/// The difference of two azimuths in degrees, modulo 360, in [0, 180].
private func azimuthError(_ a: Double, _ b: Double) -> Double {
    let d = abs((a - b).truncatingRemainder(dividingBy: 360))
    return min(d, 360 - d)
}

@Suite("WGS84 geodesic inverse", .timeLimit(.minutes(5)))
struct GeodesicTests {
    static let reference = try! TestData.table("Tests/GeodesyTests/Data/geodesic_inverse.tsv")

    @Test("every reference row from GeographicLib's GeodSolve agrees to 1e-9° and 1e-6 m")
    func referenceRows() {
        #expect(Self.reference.count == 2149)
        var worstAzimuth = (error: 0.0, row: "")
        var worstDistance = (error: 0.0, row: "")
        for row in Self.reference {
            let result = Geodesic.wgs84.inverse(
                latitude1Degrees: row.number(0), longitude1Degrees: row.number(1),
                latitude2Degrees: row.number(2), longitude2Degrees: row.number(3))
            let distanceError = abs(result.distanceMeters - row.number(6))
            if !(distanceError <= worstDistance.error) { worstDistance = (distanceError, row.description) }
            // Conventional azimuths (poles, coincident points, exact antipodes) included: we
            // follow GeographicLib's conventions, so they must agree too.
            for (computed, expected) in [
                (result.initialAzimuthDegrees, row.number(4)), (result.finalAzimuthDegrees, row.number(5)),
            ] {
                let error = azimuthError(computed, expected)
                if !(error <= worstAzimuth.error) { worstAzimuth = (error, row.description) }
            }
        }
        #expect(worstDistance.error <= 1e-6, "worst distance error \(worstDistance.error) m at \(worstDistance.row)")
        #expect(worstAzimuth.error <= 1e-9, "worst azimuth error \(worstAzimuth.error)° at \(worstAzimuth.row)")
    }

    @Test("swapping the endpoints gives the same length and reversed azimuths")
    func reversal() {
        for row in Self.reference {
            let forward = Geodesic.wgs84.inverse(
                latitude1Degrees: row.number(0), longitude1Degrees: row.number(1),
                latitude2Degrees: row.number(2), longitude2Degrees: row.number(3))
            let backward = Geodesic.wgs84.inverse(
                latitude1Degrees: row.number(2), longitude1Degrees: row.number(3),
                latitude2Degrees: row.number(0), longitude2Degrees: row.number(1))
            #expect(abs(forward.distanceMeters - backward.distanceMeters) <= 1e-8, "\(row)")
            // Exact antipodes and coincident points have no unique path to reverse.
            guard !["antipodal_exact", "coincident"].contains(row.fields[7]) else { continue }
            #expect(azimuthError(backward.initialAzimuthDegrees, forward.finalAzimuthDegrees + 180) <= 1e-8, "\(row)")
            #expect(azimuthError(backward.finalAzimuthDegrees, forward.initialAzimuthDegrees + 180) <= 1e-8, "\(row)")
        }
    }

    @Test("on a sphere the solver agrees with the closed-form great circle")
    func sphere() {
        let radius = 6_371_000.0
        let sphere = Geodesic(equatorialRadiusMeters: radius, flattening: 0)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let lat1 = Double.random(in: -89...89, using: &generator)
            let lon1 = Double.random(in: -180...180, using: &generator)
            let lat2 = Double.random(in: -89...89, using: &generator)
            let lon2 = Double.random(in: -180...180, using: &generator)
            let result = sphere.inverse(
                latitude1Degrees: lat1, longitude1Degrees: lon1, latitude2Degrees: lat2, longitude2Degrees: lon2)
            // Independent formulas: the central angle by the haversine-free atan2 form and the
            // initial course of spherical trigonometry.
            let (φ1, φ2, Δλ) = (lat1 * .pi / 180, lat2 * .pi / 180, (lon2 - lon1) * .pi / 180)
            let y = ((cos(φ2) * sin(Δλ)) * (cos(φ2) * sin(Δλ))
                + (cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)) * (cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)))
                .squareRoot()
            let x = sin(φ1) * sin(φ2) + cos(φ1) * cos(φ2) * cos(Δλ)
            let distance = radius * atan2(y, x)
            let course = atan2(cos(φ2) * sin(Δλ), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)) * 180 / .pi
            #expect(abs(result.distanceMeters - distance) <= 1e-6, "\(lat1) \(lon1) \(lat2) \(lon2)")
            if y > 1e-3 && x > -0.999 {
                #expect(azimuthError(result.initialAzimuthDegrees, course) <= 1e-8, "\(lat1) \(lon1) \(lat2) \(lon2)")
            }
        }
    }

    @Test("degenerate input: coincident points, poles, latitude out of range")
    func degenerate() {
        let here = Geodesic.wgs84.inverse(
            latitude1Degrees: 48.8584, longitude1Degrees: 2.2945, latitude2Degrees: 48.8584, longitude2Degrees: 2.2945)
        #expect(here.distanceMeters == 0)
        let pole = Geodesic.wgs84.inverse(
            latitude1Degrees: 90, longitude1Degrees: 0, latitude2Degrees: -90, longitude2Degrees: 0)
        // Half the meridian: the quarter meridian of WGS84 is 10 001 965.729 m.
        #expect(abs(pole.distanceMeters - 2 * 10_001_965.729_231_4) < 1e-3)
        #expect(pole.initialAzimuthDegrees == 180)
        let bad = Geodesic.wgs84.inverse(
            latitude1Degrees: 91, longitude1Degrees: 0, latitude2Degrees: 0, longitude2Degrees: 0)
        #expect(bad.distanceMeters.isNaN)
        #expect(bad.initialAzimuthDegrees.isNaN)
        let wrapped = Geodesic.wgs84.inverse(
            latitude1Degrees: 10, longitude1Degrees: 720 + 179.5, latitude2Degrees: 10, longitude2Degrees: -179.5)
        let direct = Geodesic.wgs84.inverse(
            latitude1Degrees: 10, longitude1Degrees: 179.5, latitude2Degrees: 10, longitude2Degrees: -179.5)
        #expect(abs(wrapped.distanceMeters - direct.distanceMeters) < 1e-9)
    }

    @Test("random pairs agree with the GeodSolve program itself")
    func geodSolveDifferential() throws {
        let geodSolve = try ExternalTool.find("GeodSolve", hint: "apt-get install geographiclib-tools")
        var generator = SeededGenerator(seed: 2025)
        var lines: [String] = []
        var pairs: [(Double, Double, Double, Double)] = []
        for _ in 0..<3000 {
            let lat1 = Double.random(in: -90...90, using: &generator)
            let lon1 = Double.random(in: -180...180, using: &generator)
            // A third of the pairs at walking range, the rest anywhere.
            let nearby = Bool.random(using: &generator)
            let lat2 = nearby ? max(-90, min(90, lat1 + Double.random(in: -0.05...0.05, using: &generator)))
                : Double.random(in: -90...90, using: &generator)
            let lon2 = nearby ? lon1 + Double.random(in: -0.05...0.05, using: &generator)
                : Double.random(in: -180...180, using: &generator)
            pairs.append((lat1, lon1, lat2, lon2))
            lines.append("\(lat1) \(lon1) \(lat2) \(lon2)")
        }
        let output = try ExternalTool.run(geodSolve, ["-i", "-p", "9"], input: lines.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        let results = output.standardOutput.split(separator: "\n")
        try #require(results.count == pairs.count)
        for (pair, line) in zip(pairs, results) {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            try #require(fields.count == 3, "GeodSolve printed '\(line)'")
            let ours = Geodesic.wgs84.inverse(
                latitude1Degrees: pair.0, longitude1Degrees: pair.1, latitude2Degrees: pair.2, longitude2Degrees: pair.3)
            #expect(abs(ours.distanceMeters - fields[2]) <= 1e-6, "\(pair)")
            #expect(azimuthError(ours.initialAzimuthDegrees, fields[0]) <= 1e-9, "\(pair)")
            #expect(azimuthError(ours.finalAzimuthDegrees, fields[1]) <= 1e-9, "\(pair)")
        }
    }
}
