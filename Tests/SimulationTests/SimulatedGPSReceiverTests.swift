import Geodesy
import Simulation
import Testing
import TestSupport

private let eiffelTower = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
/// 2026-05-01T12:00:00Z.
private let start = UTCTime(seconds: 1_777_636_800)

/// Horizontal distance between two points, metres, on the ellipsoid (independent of the
/// receiver's flat-Earth offset).
private func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
    Geodesic.wgs84.inverse(
        latitude1Degrees: a.latitudeDegrees, longitude1Degrees: a.longitudeDegrees,
        latitude2Degrees: b.latitudeDegrees, longitude2Degrees: b.longitudeDegrees
    ).distanceMeters
}

@Suite("SimulatedGPSReceiver: fixes with a real receiver's errors", .timeLimit(.minutes(5)))
struct SimulatedGPSReceiverTests {
    @Test("errors match the reported eph: RMS as a 95 % radius implies, about 95 % within eph")
    func errorStatistics() {
        var receiver = SimulatedGPSReceiver(startTime: start, seed: 42)
        // Long enough for a few hundred independent offsets at a 60 s correlation time.
        let count = 20_000
        var sumOfSquaredErrors = 0.0
        var sumOfExpectedSquares = 0.0
        var withinEph = 0
        for _ in 0..<count {
            let fix = receiver.nextFix(truth: .init(coordinate: eiffelTower))
            guard let coordinate = fix.coordinate, let eph = fix.horizontalErrorMeters else {
                Issue.record("fix without position or eph")
                return
            }
            #expect((3...5).contains(eph))
            let error = distanceMeters(coordinate, eiffelTower)
            sumOfSquaredErrors += error * error
            // A circular normal with per-axis σ has a horizontal mean square of 2σ².
            let sigma = eph / SimulatedGPSReceiver.radius95PerSigma
            sumOfExpectedSquares += 2 * sigma * sigma
            if error <= eph { withinEph += 1 }
        }
        let ratio = (sumOfSquaredErrors / sumOfExpectedSquares).squareRoot()
        #expect(abs(ratio - 1) < 0.15, "RMS error / expected RMS = \(ratio)")
        let fraction = Double(withinEph) / Double(count)
        #expect((0.90...0.99).contains(fraction), "fraction within eph \(fraction)")
    }

    @Test("the error is mostly a slowly wandering offset: consecutive fixes agree closely")
    func correlatedError() {
        var receiver = SimulatedGPSReceiver(startTime: start, seed: 3)
        let fixes = (0..<2_000).compactMap { _ in receiver.nextFix(truth: .init(coordinate: eiffelTower)).coordinate }
        let steps = zip(fixes, fixes.dropFirst()).map { distanceMeters($0, $1) }
        let errors = fixes.map { distanceMeters($0, eiffelTower) }
        let rms = { (values: [Double]) in (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot() }
        #expect(rms(steps) < 0.5 * rms(errors), "step RMS \(rms(steps)) m, error RMS \(rms(errors)) m")
        #expect(rms(steps) > 0.1, "some white noise remains")
    }

    @Test("mode 3, time steps by one second from the start, satellites and altitude present")
    func fixFields() throws {
        var receiver = SimulatedGPSReceiver(startTime: start, seed: 1)
        for second in 0..<5 {
            let fix = receiver.nextFix(truth: .init(coordinate: eiffelTower))
            #expect(fix.mode == .threeDimensional)
            #expect(fix.time == UTCTime(seconds: start.seconds + Int64(second)))
            #expect(fix.hasPosition)
            #expect(fix.altitudeHAEMeters != nil)
            #expect(fix.satellitesUsed == 9)
        }
        #expect(receiver.epoch == 5)
    }

    @Test("speed and track follow the walker while walking; no track while standing")
    func speedAndTrack() throws {
        var walker = SimulatedWalker(position: eiffelTower, yawDegrees: 0, seed: 5)
        walker.destination = Coordinate(uncheckedLatitudeDegrees: 48.8606, longitudeDegrees: 2.2977)
        var receiver = SimulatedGPSReceiver(startTime: start, seed: 9)
        let standing = receiver.nextFix(truth: .init(walker: walker))
        #expect(standing.trackDegrees == nil)
        #expect(try #require(standing.speedMetersPerSecond) < 0.5)
        while walker.activity != .walking { walker.step(seconds: 0.1) }
        walker.step(seconds: 0.1)
        let walking = receiver.nextFix(truth: .init(walker: walker))
        let speed = try #require(walking.speedMetersPerSecond)
        let track = try #require(walking.trackDegrees)
        #expect(abs(speed - walker.walkingSpeedMetersPerSecond) < 0.5)
        #expect(abs(Angle.signedDifference(from: walker.yawDegrees, to: track)) < 10)
        #expect(walking.trackErrorDegrees != nil)
    }
}
