import Geodesy
import Testing

@Suite("Angle", .timeLimit(.minutes(5)))
struct AngleTests {
    /// Tolerance for results that go through `sin`, `cos` and `atan2`.
    static let trigToleranceDegrees = 1e-9

    /// Whether two directions are within `tolerance` of each other on the circle.
    static func isClose(_ actual: Double?, to expected: Double, tolerance: Double) -> Bool {
        guard let actual else {
            return false
        }
        return Angle.signedDifference(from: expected, to: actual).magnitude <= tolerance
    }

    // 1e20 is exact in binary; 1e20 = 360·k + 280 (1e20 ≡ 0 mod 40 and ≡ 1 mod 9).
    @Test(
        "normalized wraps into [0, 360)",
        arguments: [
            (0.0, 0.0), (360, 0), (-360, 0), (720, 0), (180, 180), (-180, 180), (-1, 359), (361, 1),
            (359.5, 359.5), (-720.25, 359.75), (1e-20, 1e-20), (-1e-20, 0), (1e20, 280),
            (-1e20, 80),
        ])
    func normalized(degrees: Double, expected: Double) {
        let wrapped = Angle.normalized(degrees)
        #expect(wrapped == expected)
        #expect(wrapped >= 0 && wrapped < 360)
    }

    @Test("normalized turns negative zero and tiny negative angles into +0, never 360")
    func normalizedZeroSign() {
        #expect(Angle.normalized(-0.0).sign == .plus)
        #expect(Angle.normalized(-1e-20) == 0)
        #expect(Angle.normalized(-1e-20).sign == .plus)
        #expect(Angle.normalized(-Double.leastNonzeroMagnitude) == 0)
        // The largest double below 360 must stay below 360.
        #expect(Angle.normalized(360.0.nextDown) == 360.0.nextDown)
    }

    @Test("normalized keeps huge finite angles in range")
    func normalizedHuge() {
        for degrees in [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 1e300] {
            let wrapped = Angle.normalized(degrees)
            #expect(wrapped.isFinite && wrapped >= 0 && wrapped < 360)
        }
    }

    @Test(
        "normalized gives NaN for NaN and infinity", arguments: [Double.nan, .infinity, -.infinity])
    func normalizedNonFinite(degrees: Double) {
        #expect(Angle.normalized(degrees).isNaN)
        #expect(Angle.signedNormalized(degrees).isNaN)
    }

    @Test(
        "signedNormalized wraps into (-180, 180]",
        arguments: [
            (0.0, 0.0), (180, 180), (-180, 180), (540, 180), (-540, 180), (190, -170), (-190, 170),
            (359, -1), (-1, -1), (360, 0), (179.5, 179.5), (-179.5, -179.5),
        ])
    func signedNormalized(degrees: Double, expected: Double) {
        #expect(Angle.signedNormalized(degrees) == expected)
    }

    @Test("signedNormalized of negative zero is +0")
    func signedNormalizedZero() {
        #expect(Angle.signedNormalized(-0.0).sign == .plus)
    }

    @Test(
        "signedDifference takes the short way round, in (-180, 180]",
        arguments: [
            (0.0, 180.0, 180.0), (180, 0, 180), (0, -180, 180), (90, 270, 180), (270, 90, 180),
            (10, 350, -20), (350, 10, 20), (359, 1, 2), (1, 359, -2), (-180, 180, 0), (0, 360, 0),
            (0, 179.5, 179.5), (0, 180.5, -179.5), (-90, 90, 180), (1e20, 0, 80), (0, 0, 0),
            (-0.0, 0, 0),
        ])
    func signedDifference(from: Double, to: Double, expected: Double) {
        #expect(Angle.signedDifference(from: from, to: to) == expected)
    }

    @Test("signedDifference with a NaN or infinite angle is NaN")
    func signedDifferenceNonFinite() {
        #expect(Angle.signedDifference(from: .nan, to: 0).isNaN)
        #expect(Angle.signedDifference(from: 0, to: .infinity).isNaN)
    }

    @Test(
        "circularMean of directions",
        arguments: [
            ([359.0, 1.0], 0.0), ([350, 10, 0], 0), ([10, 20, 30], 20), ([45], 45), ([-1, 1], 0),
            ([730, -350], 10), ([170, -170], 180), ([0, 90], 45), ([270, 0], 315),
            ([358, 2, 359, 1], 0),
        ] as [([Double], Double)])
    func circularMean(degrees: [Double], expected: Double) {
        let mean = Angle.circularMean(degrees)
        #expect(Self.isClose(mean, to: expected, tolerance: Self.trigToleranceDegrees))
        if let mean {
            #expect(mean >= 0 && mean < 360)
        }
    }

    @Test("circularMean across the 359/1 wrap is exactly 0, not 180")
    func circularMeanWrap() {
        #expect(Angle.circularMean([359.0, 1.0]) == 0)
        #expect(Angle.circularMean([-1.0, 1.0]) == 0)
    }

    @Test(
        "circularMean is nil with no samples, cancelling samples or non-finite samples",
        arguments: [
            [], [0.0, 180.0], [90, 270], [0, 120, 240], [10, 190, 100, 280], [.nan],
            [1, .infinity],
        ])
    func circularMeanUndefined(degrees: [Double]) {
        #expect(Angle.circularMean(degrees) == nil)
    }

    @Test("weighted circularMean")
    func weightedCircularMean() {
        // Unit east plus √3 north-pointing-east: atan2(√3, 1) = 60°.
        let sixty = Angle.circularMean(weighted: [
            (degrees: 0, weight: 1), (degrees: 90, weight: 3.0.squareRoot()),
        ])
        #expect(Self.isClose(sixty, to: 60, tolerance: Self.trigToleranceDegrees))
        // A zero weight drops its sample.
        let ten = Angle.circularMean(weighted: [
            (degrees: 10, weight: 3), (degrees: 200, weight: 0),
        ])
        #expect(Self.isClose(ten, to: 10, tolerance: Self.trigToleranceDegrees))
        // Heavier samples pull harder: 2 parts at 0°, 1 part at 90° → atan2(1, 2).
        let pulled = Angle.circularMean(weighted: [
            (degrees: 0, weight: 2), (degrees: 90, weight: 1),
        ])
        #expect(Self.isClose(pulled, to: 26.565051177077990, tolerance: Self.trigToleranceDegrees))
        // Equal weights on opposite directions cancel.
        let cancelled = Angle.circularMean(weighted: [
            (degrees: 0, weight: 2), (degrees: 180, weight: 2),
        ])
        #expect(cancelled == nil)
    }

    @Test(
        "weighted circularMean is nil for zero, negative or non-finite weights",
        arguments: [
            [(degrees: 10.0, weight: 0.0)], [(degrees: 10, weight: -1), (degrees: 20, weight: 2)],
            [(degrees: 10, weight: .nan)], [(degrees: 10, weight: .infinity)], [],
        ])
    func weightedCircularMeanUndefined(samples: [(degrees: Double, weight: Double)]) {
        #expect(Angle.circularMean(weighted: samples) == nil)
    }
}
