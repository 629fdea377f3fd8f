import Foundation
import Testing

@testable import Heading

/// The gain of the magnetometer's correction of the heading, sample by sample at 50 Hz, against
/// what the settings say in closed form.
@Suite("How much of each magnetometer sample corrects the heading", .timeLimit(.minutes(5)))
struct HeadingCorrectionTests {
    static let dt = 0.02

    /// Applies `count` samples of a field `target` degrees away from a heading starting at
    /// `heading`, each with `weight`; returns the heading.
    static func follow(
        _ correction: inout HeadingCorrection, from heading: Double, to target: Double, count: Int, weight: Double = 1,
        biasSigma: Double = 0.1
    ) -> Double {
        var heading = heading
        for _ in 0..<count {
            heading += correction.gain(weight: weight, seconds: dt, biasSigmaDegreesPerSecond: biasSigma) * (target - heading)
        }
        return heading
    }

    @Test("the first sample sets the heading; then samples are averaged, down to the steady time constant")
    func start() {
        var correction = HeadingCorrection()
        #expect(!correction.hasHeading)
        #expect(correction.gain(weight: 0, seconds: 0, biasSigmaDegreesPerSecond: 0.5) == 1)
        #expect(correction.hasHeading)
        // The next sample averages with it: gain ½.
        #expect(correction.gain(weight: 1, seconds: Self.dt, biasSigmaDegreesPerSecond: 0.1) == 0.5)
        // A second of samples in all, each of variance 3²/0.02: the heading is as good as a
        // second of clean field, 3².
        for _ in 0..<49 { _ = correction.gain(weight: 1, seconds: Self.dt, biasSigmaDegreesPerSecond: 0.1) }
        #expect(abs(correction.varianceDegrees2 - 9 * 50 / 51) < 1e-9, "\(correction.varianceDegrees2)")
        // Long after, the steady gain of the 10 s time constant.
        for _ in 0..<50_000 { _ = correction.gain(weight: 1, seconds: Self.dt, biasSigmaDegreesPerSecond: 0.1) }
        let steady = 1 - exp(-Self.dt / 10)
        #expect(abs(correction.gain(weight: 1, seconds: Self.dt, biasSigmaDegreesPerSecond: 0.1) - steady) < 1e-12)
    }

    @Test("after a minute's coasting the heading is 89 % of the way back to a clean field in 2 s (the steady gain alone: 18 %)")
    func returnAfterCoasting() {
        var correction = HeadingCorrection()
        _ = Self.follow(&correction, from: 0, to: 0, count: 50_000)
        // Coasting 60 s (weight 0): the bias, known to 0.1 °/s, may have turned the heading 6°.
        _ = Self.follow(&correction, from: 0, to: 30, count: 3000, weight: 0)
        // The field is clean again, 5° from where the heading coasted to.
        // Variance 6² against a second's 3²: after t seconds 3²/(3² + 6²·t) of the way is left,
        // 11 % after 2 s; the steady gain alone would leave e^(−2/10), 82 %.
        let back = Self.follow(&correction, from: 0, to: 5, count: 100)
        #expect(abs(back - 5) < 0.6, "2 s after the field was clean the heading is \(back)°, the field 5°")
    }

    @Test("a field that seems clean for half a second after 15 s of coasting barely moves the heading")
    func briefClear() {
        var correction = HeadingCorrection()
        _ = Self.follow(&correction, from: 0, to: 0, count: 50_000)
        _ = Self.follow(&correction, from: 0, to: 30, count: 750, weight: 0)
        // 15 s at 0.1 °/s: 1.5°; a disturbed field 20° off, trusted for 0.5 s.
        let moved = Self.follow(&correction, from: 0, to: 20, count: 25)
        #expect(moved < 4, "the heading moved \(moved)° towards a field 20° off")
    }
}
