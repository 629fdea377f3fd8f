import Foundation
import Simulation
import Testing

@testable import Heading

/// The orientation filter's parts, each against what it must do by construction.
@Suite("Orientation filter parts", .timeLimit(.minutes(5)))
struct OrientationPartsTests {
    @Test("a quaternion from a rotation vector turns exactly: 1000 °/s about a tilted axis for 1 s, in 50 steps")
    func exactRotation() {
        let axis = Vector3(1, 2, 3).normalized
        let step = Quaternion(rotationVector: axis * (1000 * .pi / 180 / 50))
        var q = Quaternion.identity
        for _ in 0..<50 { q = (q * step).normalized }
        // 1000° = 2·360° + 280°: the axis stays put, a perpendicular vector turns by 280°.
        let perpendicular = Vector3(3, 0, -1).normalized
        let turned = q.rotate(perpendicular)
        #expect((q.rotate(axis) - axis).length < 1e-12)
        let cosine = turned.dot(perpendicular)
        let sine = perpendicular.cross(turned).dot(axis)
        #expect(abs(atan2(sine, cosine) * 180 / .pi - (280 - 360)) < 1e-9)
        // The matrix and the rotation agree.
        #expect((q.matrix * perpendicular - turned).length < 1e-12)
    }

    @Test("the low-pass filter passes a constant exactly, settles a step as its time constant says, and damps 5 Hz")
    func lowPass() {
        var filter = LowPassFilter(timeConstantSeconds: 1)
        #expect(filter.update(Vector3(1, 2, 3), seconds: 0) == Vector3(1, 2, 3))
        for _ in 0..<10 { #expect((filter.update(Vector3(1, 2, 3), seconds: 0.02) - Vector3(1, 2, 3)).length < 1e-12) }
        var step = LowPassFilter(timeConstantSeconds: 1)
        _ = step.update(.zero, seconds: 0)
        var afterOne = 0.0
        for i in 1...500 {
            let y = step.update(Vector3(1, 0, 0), seconds: 0.02).x
            if i == 50 { afterOne = y }
        }
        #expect(afterOne > 0.4 && afterOne < 0.8, "after one time constant \(afterOne)")
        var sine = LowPassFilter(timeConstantSeconds: 1)
        var peak = 0.0
        for i in 0..<1000 {
            let y = sine.update(Vector3(sin(2 * .pi * 5 * Double(i) * 0.02 + 0.3), 0, 0), seconds: 0.02).x
            if i > 500 { peak = max(peak, abs(y)) }
        }
        #expect(peak < 0.01, "5 Hz through a 1 s filter: \(peak)")
    }

    @Test("the low-pass filter stays bounded and monotone with uneven intervals, as a FIFO's dated-back samples come")
    func lowPassUnevenIntervals() {
        // A biquad whose coefficients follow the interval diverged here (84 µT, then −162,
        // from a steady 48 µT field) in the simulated daemon.
        var filter = LowPassFilter(timeConstantSeconds: 0.05)
        _ = filter.update(Vector3(48, 65, 0), seconds: 0)
        let intervals = [0.0, 0.0001, 0.02, 0.04, 0.0003, 0.0, 0.019, 0.1]
        for i in 0..<2000 {
            let y = filter.update(Vector3(48, 65, 0), seconds: intervals[i % intervals.count])
            #expect(abs(y.x - 48) < 1e-9 && abs(y.y - 65) < 1e-9)
        }
        var step = LowPassFilter(timeConstantSeconds: 0.05)
        _ = step.update(.zero, seconds: 0)
        var previous = 0.0
        for i in 0..<2000 {
            let y = step.update(Vector3(1, 0, 0), seconds: intervals[i % intervals.count]).x
            #expect(y >= previous - 1e-12 && y <= 1 + 1e-12, "step response \(y) after \(previous)")
            previous = y
        }
        #expect(previous > 0.999)
    }

    @Test("at rest the bias is learnt to within 0.02 °/s in 5 s; turning is not rest")
    func restBias() {
        let bias = Vector3(0.4, -0.3, 0.25)
        var estimator = OrientationEstimator()
        var generator = SplitMix64(seed: 3)
        for i in 0..<250 {
            let noise = Vector3(generator.gaussian(), generator.gaussian(), generator.gaussian()) * 0.1
            estimator.update(angularRateDegreesPerSecond: bias + noise, accelerationG: Vector3(0, 0, -1), seconds: i == 0 ? 0 : 0.02)
        }
        #expect(estimator.isResting)
        #expect((estimator.bias.degreesPerSecond - bias).length < 0.02, "\(estimator.bias.degreesPerSecond)")
        #expect(estimator.bias.sigmaDegreesPerSecond < 0.05)
        var turning = OrientationEstimator()
        for i in 0..<250 {
            turning.update(angularRateDegreesPerSecond: Vector3(0, 0, 20), accelerationG: Vector3(0, 0, -1), seconds: i == 0 ? 0 : 0.02)
        }
        #expect(!turning.isResting)
    }

    @Test("linear acceleration does not tilt the estimate: still for 1 s, then shaken at 2 g and 3 Hz: within 4° as it starts, within 1.5° from 3 s on (the accelerometer alone would say 68°)")
    func shaking() {
        var estimator = OrientationEstimator()
        var worst = 0.0
        var settled = 0.0
        for i in 0..<550 {
            let t = Double(i) * 0.02
            let shake = t < 1 ? .zero : Vector3(2 * sin(2 * .pi * 3 * t), 1.5 * cos(2 * .pi * 3 * t), 0)
            estimator.update(angularRateDegreesPerSecond: .zero, accelerationG: shake + Vector3(0, 0, -1), seconds: i == 0 ? 0 : 0.02)
            let down = estimator.down
            let tilt = acos(min(1, down.z)) * 180 / .pi
            worst = max(worst, tilt)
            if t > 4 { settled = max(settled, tilt) }
        }
        #expect(worst < 4, "tilt \(worst)°")
        #expect(settled < 1.5, "tilt \(settled)° from 3 s on")
    }

    @Test("the magnetometer's lag is learnt from turning: 12 ms to within 2 ms")
    func magnetometerLag() {
        var lag = MagnetometerLag()
        let field = Vector3(20, 0, 45)
        let lagSeconds = 0.012
        var generator = SplitMix64(seed: 5)
        for i in 0..<3000 {
            let t = Double(i) * 0.02
            // Turning about a tilted axis, to and fro: the field read late is off by lag·ω × m.
            let omega = Vector3(0.3, 0.5, 1).normalized * (3 * sin(2 * .pi * 0.4 * t))
            let read = field + omega.cross(field) * lagSeconds + Vector3(generator.gaussian(), 0, generator.gaussian()) * 0.3
            lag.update(verticalMicrotesla: read.z, verticalRate: omega.cross(field).z, seconds: 0.02)
        }
        #expect(abs(lag.seconds - lagSeconds) < 0.002, "\(lag.seconds)")
        var still = MagnetometerLag()
        for _ in 0..<3000 { still.update(verticalMicrotesla: 45 + generator.gaussian(), verticalRate: 0, seconds: 0.02) }
        #expect(still.seconds == 0, "a still device shows no lag")
    }

    @Test("the reference learns the room's field, flags a magnet, and takes a new steady field only while turning")
    func magneticReference() {
        let tolerance = MagneticReference.Tolerance(strength: 0.1, dipDegrees: 10)
        var reference = MagneticReference()
        reference.setModel(strengthMicrotesla: 50, inclinationDegrees: 68)
        // A room 3 µT and 3° off the model: within tolerance, learnt.
        for _ in 0..<3000 {
            reference.update(strengthMicrotesla: 47, inclinationDegrees: 71, tolerance: tolerance, turnDegreesPerSecond: 0, seconds: 0.02)
        }
        #expect(!reference.isDisturbed)
        #expect(abs((reference.strengthMicrotesla ?? 0) - 47) < 0.2 && abs((reference.inclinationDegrees ?? 0) - 71) < 0.2)
        // A magnet: 8 µT more, flagged within 0.2 s.
        var flagged: Int?
        for i in 0..<50 {
            reference.update(strengthMicrotesla: 55, inclinationDegrees: 71, tolerance: tolerance, turnDegreesPerSecond: 0, seconds: 0.02)
            if flagged == nil, reference.isDisturbed { flagged = i }
        }
        #expect((flagged ?? 99) <= 10)
        // Held still beside it for a minute: still disturbed (a steady field seen without turning
        // could be iron nearby).
        for _ in 0..<3000 {
            reference.update(strengthMicrotesla: 55, inclinationDegrees: 71, tolerance: tolerance, turnDegreesPerSecond: 0, seconds: 0.02)
        }
        #expect(reference.isDisturbed && reference.disturbedSeconds > 60)
        // Turned in it for 20 s: the field stays steady, so it is Earth's here.
        for _ in 0..<1010 {
            reference.update(strengthMicrotesla: 55, inclinationDegrees: 71, tolerance: tolerance, turnDegreesPerSecond: 45, seconds: 0.02)
        }
        #expect(!reference.isDisturbed)
        #expect(abs((reference.strengthMicrotesla ?? 0) - 55) < 0.5)
    }

    @Test("the stride filter cancels 1 and 2 Hz sway and follows a steady turn without delay")
    func strideFilter() {
        var filter = StrideFilter()
        var worst = 0.0
        for i in 0..<500 {
            let t = Double(i) * 0.02
            let truth = 350 + 30 * t
            let sway = 4 * sin(2 * .pi * t) + 3 * sin(2 * .pi * 2 * t + 1)
            let out = filter.update(HeadingEstimator.wrap(truth + sway), strideSamples: 50)
            if t > 2.1 { worst = max(worst, abs(HeadingEstimator.difference(HeadingEstimator.wrap(truth), out))) }
        }
        #expect(worst < 1e-6, "error \(worst)° while turning at 30 °/s through 0°/360°")
    }
}
