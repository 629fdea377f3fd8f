import Geomagnetism
import Heading

/// What a body-worn magnetometer, accelerometer and gyroscope read, from the physics: Earth's
/// field from WMM2025 at a place and date, the body's attitude and linear acceleration, the
/// device's hard and soft iron, and sensor noise and bias at datasheet levels.
public struct SensorPhysics: Sendable {
    /// Earth's field at the place, NED, microtesla.
    public var earthFieldMicrotesla: Vector3
    /// Hard iron: a field fixed to the device, body frame, microtesla.
    public var hardIronMicrotesla = Vector3.zero
    /// Soft iron: raw = softIron · true + hardIron.
    public var softIron = Matrix3.identity
    /// RMS noise per axis. Defaults: 0.3 µT (LIS3MDL at ±4 gauss), 0.004 g, 0.1 °/s.
    public var magnetometerNoiseMicrotesla = 0.3
    public var accelerometerNoiseG = 0.004
    public var gyroscopeNoiseDegreesPerSecond = 0.1
    /// Gyroscope bias, °/s.
    public var gyroscopeBiasDegreesPerSecond = Vector3.zero
    private var random: SplitMix64

    /// Physics at a place and date.
    public init(latitudeDegrees: Double, longitudeDegrees: Double, decimalYear: Double, seed: UInt64) {
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees,
            heightAboveEllipsoidKilometers: 0, decimalYear: decimalYear)
        earthFieldMicrotesla = Vector3(field.northNanotesla, field.eastNanotesla, field.downNanotesla) / 1000
        random = SplitMix64(seed: seed)
    }

    /// Physics with a given field, NED, microtesla.
    public init(earthFieldMicrotesla: Vector3, seed: UInt64) {
        self.earthFieldMicrotesla = earthFieldMicrotesla
        random = SplitMix64(seed: seed)
    }

    private mutating func noise(_ sigma: Double) -> Vector3 {
        Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * sigma
    }

    /// One reading, body frame.
    /// - Parameters:
    ///   - attitude: the body's orientation.
    ///   - linearAccelerationG: acceleration in NED, g.
    ///   - bodyRatesDegreesPerSecond: true rotation rates, or nil for a board without a gyroscope.
    ///   - extraFieldMicrotesla: a disturbance fixed to the body (a magnet), body frame.
    public mutating func sample(
        _ attitude: Attitude, linearAccelerationG: Vector3 = .zero, bodyRatesDegreesPerSecond: Vector3? = nil,
        extraFieldMicrotesla: Vector3 = .zero
    ) -> IMUSample {
        let field = softIron * (attitude.toBody(earthFieldMicrotesla) + extraFieldMicrotesla) + hardIronMicrotesla
        return IMUSample(
            magneticMicrotesla: field + noise(magnetometerNoiseMicrotesla),
            accelerationG: attitude.specificForce(linearAccelerationG: linearAccelerationG) + noise(accelerometerNoiseG),
            angularRateDegreesPerSecond: bodyRatesDegreesPerSecond.map {
                $0 + gyroscopeBiasDegreesPerSecond + noise(gyroscopeNoiseDegreesPerSecond)
            })
    }
}
