/// Hard- and soft-iron correction: `calibrated = matrix · (raw − offset)`.
public struct MagneticCalibration: Sendable, Hashable {
    /// Hard-iron offset, microtesla, body frame.
    public var offsetMicrotesla: Vector3
    /// Soft-iron matrix (symmetric, near the identity).
    public var matrix: Matrix3

    /// No correction.
    public static let identity = MagneticCalibration(offsetMicrotesla: .zero, matrix: .identity)

    /// A calibration from its parts.
    public init(offsetMicrotesla: Vector3, matrix: Matrix3) {
        self.offsetMicrotesla = offsetMicrotesla
        self.matrix = matrix
    }

    /// The corrected field.
    public func apply(_ rawMicrotesla: Vector3) -> Vector3 { matrix * (rawMicrotesla - offsetMicrotesla) }
}
