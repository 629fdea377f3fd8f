/// One reading of the motion sensors in the body frame (x forward, y right, z down).
public struct IMUSample: Sendable, Hashable {
    /// Magnetic field, microtesla, uncalibrated.
    public var magneticMicrotesla: Vector3
    /// Specific force, g: level and at rest it reads (0, 0, −1).
    public var accelerationG: Vector3
    /// Angular rate, degrees per second, right-handed about each axis; nil without a gyroscope.
    public var angularRateDegreesPerSecond: Vector3?

    /// A sample from its parts.
    public init(magneticMicrotesla: Vector3, accelerationG: Vector3, angularRateDegreesPerSecond: Vector3? = nil) {
        self.magneticMicrotesla = magneticMicrotesla
        self.accelerationG = accelerationG
        self.angularRateDegreesPerSecond = angularRateDegreesPerSecond
    }
}
