import Geodesy
import Simulation
import Testing

@testable import Guidance

/// `place mark`'s averaging on the simulated receiver, whose error is a slowly drifting offset
/// (correlated over a minute, as real receivers' are) plus a little jitter: real data cannot
/// give the truth of a standing wearer's position, so this is simulation, and says so.
@Suite("Averaging fixes for place mark (simulated receiver)", .timeLimit(.minutes(5)))
struct PositionAverageTests {
    static let truth = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)

    /// Five fixes, one a second, from a receiver reporting eph 5 m, of a wearer standing at
    /// ``truth``; the average and how far it is from the truth.
    static func mark(seed: UInt64, settings: SimulatedGPSReceiver.Settings) -> (errorMeters: Double, missMeters: Double) {
        var receiver = SimulatedGPSReceiver(startTime: UTCTime(seconds: 1_782_950_400), settings: settings, seed: seed)
        // Start somewhere in the receiver's drift, not at its first fix.
        for _ in 0..<Int(seed % 97) { _ = receiver.nextFix(truth: .init(coordinate: truth)) }
        let samples = (0..<5).map { second in
            let fix = receiver.nextFix(truth: .init(coordinate: truth))
            return PositionAverage.Sample(coordinate: fix.coordinate!, errorMeters: fix.horizontalErrorMeters, seconds: Double(second))
        }
        let average = PositionAverage.of(samples)!
        return (average.errorMeters, Geodesic.wgs84.inverse(from: average.coordinate, to: truth).distanceMeters)
    }

    static var fiveMeters: SimulatedGPSReceiver.Settings {
        var settings = SimulatedGPSReceiver.Settings()
        settings.minimumHorizontalErrorMeters = 5
        settings.maximumHorizontalErrorMeters = 5
        return settings
    }

    @Test("100 seeded marks with the default, correlated error: the reported error holds the truth in at least 90 of them")
    func honestWithCorrelatedError() {
        let runs = (1...100).map { Self.mark(seed: UInt64($0), settings: Self.fiveMeters) }
        let held = runs.filter { $0.missMeters <= $0.errorMeters }.count
        #expect(held >= 90, "the truth inside the reported error in \(held) of 100")
        // Five seconds of fixes sharing one offset are worth about one fix: the error says so.
        #expect(runs.allSatisfy { $0.errorMeters >= 4.5 && $0.errorMeters <= 5.5 }, "\(runs.map(\.errorMeters))")
    }

    @Test("with independent 5 m errors (no drift), the mark lands within 3 m of the truth, and the error holds it")
    func independentErrorAverages() {
        var settings = Self.fiveMeters
        // All of the error budget as white noise: σ = 5 m / 2.45 per axis, independent per fix.
        settings.offsetCorrelationSeconds = 0.001
        let runs = (1...100).map { Self.mark(seed: UInt64($0), settings: settings) }
        let within = runs.filter { $0.missMeters <= 3 }.count
        let held = runs.filter { $0.missMeters <= $0.errorMeters }.count
        #expect(within >= 90, "within 3 m in \(within) of 100; misses \(runs.map(\.missMeters).sorted().suffix(5))")
        #expect(held >= 90, "the truth inside the reported error in \(held) of 100")
    }

    @Test("fixes without eph count as 50 m; a wearer who walked while marking gets the farthest fix as the error, and how far they moved")
    func unknownErrorAndScatter() {
        let plane = LocalPlane(origin: Self.truth)
        let still = [PositionAverage.Sample(coordinate: Self.truth, errorMeters: nil, seconds: 0)]
        #expect(PositionAverage.of(still)?.errorMeters == 50)
        // 10 m walked during the mark, eph 3 m: the farthest fix (5 m from the mean) outweighs
        // the eph (issue 30, item 4: the rms scatter, 3.5 m, said less than the walk).
        let walked = (0...4).map { PositionAverage.Sample(coordinate: plane.coordinate(east: 2.5 * Double($0), north: 0), errorMeters: 3, seconds: Double($0)) }
        let average = PositionAverage.of(walked)!
        #expect(abs(plane.offset(of: average.coordinate).east - 5) < 0.01)
        #expect(abs(average.errorMeters - 5) < 0.01)
        #expect(abs(average.movedMeters - 10) < 0.01)
        #expect(abs(average.fixErrorMeters - 3) < 0.01)
        #expect(PositionAverage.of([PositionAverage.Sample]()) == nil)
    }
}
