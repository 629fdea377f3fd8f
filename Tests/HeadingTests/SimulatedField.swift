import Foundation
import Heading
import TestSupport

/// What ideal sensors plus noise read for an attitude: an independent model of the physics
/// the heading pipeline inverts.
struct SensorModel {
    /// Earth's field in NED, microtesla, for a total intensity and inclination (north along x).
    static func earthField(microtesla: Double, inclinationDegrees: Double) -> Vector3 {
        let i = inclinationDegrees * .pi / 180
        return Vector3(microtesla * cos(i), 0, microtesla * sin(i))
    }

    var generator: SeededGenerator
    var magnetometerNoiseMicrotesla = 0.3
    var accelerometerNoiseG = 0.004
    var gyroNoiseDegreesPerSecond = 0.1

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func gaussian() -> Double {
        let u1 = max(Double.random(in: 0..<1, using: &generator), 1e-300)
        let u2 = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    mutating func noise(_ sigma: Double) -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) * sigma }

    /// One sample for an attitude, linear acceleration (NED, g) and body rates (°/s).
    mutating func sample(
        _ attitude: Attitude, field: Vector3, linearAccelerationG: Vector3 = .zero, rates: Vector3? = nil
    ) -> IMUSample {
        IMUSample(
            magneticMicrotesla: attitude.toBody(field) + noise(magnetometerNoiseMicrotesla),
            accelerationG: attitude.specificForce(linearAccelerationG: linearAccelerationG) + noise(accelerometerNoiseG),
            angularRateDegreesPerSecond: rates.map { $0 + noise(gyroNoiseDegreesPerSecond) })
    }
}

/// The difference of two headings in degrees, in (−180, 180].
func headingError(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360)
    return d > 180 ? d - 360 : (d <= -180 ? d + 360 : d)
}
