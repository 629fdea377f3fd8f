import Foundation
import Simulation
import Testing
import TestSupport

@testable import Heading

/// Walking without a gyroscope, with turns: the sway must average out on the straight
/// stretches, and the heading must not lag in the turns (a heading 0.5 s late at 30 °/s buzzes
/// 15° late and the wearer overshoots). Simulated: what real data cannot give is a walk with
/// exact truth; the sway and trunk accelerations are `SimulatedWalker`'s and the fixtures'.
@Suite("Walking with turns, without a gyroscope", .timeLimit(.minutes(5)))
struct WalkingTurnsTests {
    static let rate = 50.0
    static let dt = 1 / rate
    /// 90° turns of 4.5 s each (smoothstep, peaking at 30 °/s), then 10 s straight.
    static let segmentSeconds = 14.5
    static let turnSeconds = 4.5

    static func yaw(atSeconds t: Double) -> (degrees: Double, rate: Double) {
        let segment = Int(t / segmentSeconds)
        let into = t - Double(segment) * segmentSeconds
        let start = 20.0 + 90 * Double(segment)
        guard into < turnSeconds, segment > 0 else { return (start, 0) }
        let x = into / turnSeconds
        return (start - 90 + 90 * x * x * (3 - 2 * x), 90 * 6 * x * (1 - x) / turnSeconds)
    }

    @Test("lag in turns at most 150 ms, and RMS at most 2° on the straight stretches")
    func lagAndSway() {
        var physics = SensorPhysics(earthFieldMicrotesla: earthField(microtesla: 48, inclinationDegrees: 64), seed: 21)
        let model = HeadingEstimator.ModelField(declinationDegrees: 0, totalIntensityMicrotesla: 48, inclinationDegrees: 64)
        var estimator = HeadingEstimator(calibration: .identity)
        var truth: [(seconds: Double, degrees: Double, rate: Double)] = []
        var estimates: [Double] = []
        for i in 0..<Int(5 * Self.segmentSeconds * Self.rate) {
            let t = Double(i) * Self.dt
            let (yaw, rate) = Self.yaw(atSeconds: t)
            // The trunk's own tilts at the step and stride frequencies, on top of a forward lean.
            let phase = 2 * Double.pi * 2 * t
            let attitude = Attitude(yawDegrees: yaw, pitchDegrees: 12 + 2 * sin(phase), rollDegrees: -6 + 3 * sin(phase / 2))
            let sample = physics.sample(
                attitude, linearAccelerationG: SimulatedWalker.trunkAccelerationG(atSeconds: t, yawDegrees: yaw))
            let estimate = estimator.update(sample, seconds: i == 0 ? 0 : Self.dt, model: model)
            truth.append((t, yaw, rate))
            estimates.append(estimate.trueDegrees ?? .nan)
        }
        // Straight: from 3 s after a turn ends (or after the start) to the next turn.
        let straight = truth.indices.filter {
            let t = truth[$0].seconds
            let into = t.truncatingRemainder(dividingBy: Self.segmentSeconds)
            return t < Self.segmentSeconds ? t > 3 : into >= Self.turnSeconds + 3
        }
        let straightErrors = straight.map { headingError(estimates[$0], truth[$0].degrees) }
        let straightRMS = (straightErrors.reduce(0) { $0 + $1 * $1 } / Double(straightErrors.count)).squareRoot()
        #expect(straightRMS <= 2, "RMS on the straight stretches \(straightRMS)°")

        // The lag: the shift of the truth that best fits the estimate while turning.
        let turning = truth.indices.filter { truth[$0].rate > 5 }
        func rms(shift: Int) -> Double {
            let errors = turning.filter { $0 - shift >= 0 }.map { headingError(estimates[$0], truth[$0 - shift].degrees) }
            return (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        }
        let best = (-10...40).min { rms(shift: $0) < rms(shift: $1) }!
        let lagSeconds = Double(best) * Self.dt
        #expect(turning.count > 500)
        #expect(lagSeconds <= 0.15, "lag \(lagSeconds) s (RMS \(rms(shift: best))° at that shift, \(rms(shift: 0))° at none)")
    }
}
