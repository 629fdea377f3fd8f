#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Magnetic heading of the body's forward axis from the field and the direction of gravity,
/// by vectors rather than roll and pitch angles, so there is no Euler singularity: with `down`
/// the unit vector of gravity in the body frame, east = down × field and north = east × down
/// span the horizontal plane, and the heading is the angle of the forward axis (x) in it.
public enum TiltCompensation {
    /// Below this horizontal projection of the forward axis (the sine of ~3°) the device points
    /// almost straight up or down and has no meaningful heading.
    public static let minimumHorizontalProjection = 0.05

    /// The magnetic heading of the forward axis, degrees clockwise from magnetic north in
    /// [0, 360), or nil when it is undefined (forward axis vertical, field parallel to gravity,
    /// or non-finite input).
    /// - Parameters:
    ///   - field: calibrated magnetic field, body frame, any unit.
    ///   - down: direction of gravity, body frame (need not be unit length).
    public static func magneticHeadingDegrees(field: Vector3, down: Vector3) -> Double? {
        let d = down.normalized
        let east = d.cross(field)
        let eastLength = east.length
        guard field.isFinite, d.isFinite, eastLength > 1e-9 * max(field.length, 1e-300) else { return nil }
        let e = east / eastLength
        let n = e.cross(d)
        // Forward axis (1, 0, 0) in the horizontal frame.
        let x = n.x
        let y = e.x
        guard (x * x + y * y).squareRoot() >= minimumHorizontalProjection else { return nil }
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : (degrees >= 360 ? 0 : degrees)
    }

    /// The field's inclination (dip), degrees, positive when it points below the horizon.
    public static func inclinationDegrees(field: Vector3, down: Vector3) -> Double? {
        let length = field.length
        guard length > 0, field.isFinite, down.isFinite, down.length > 0 else { return nil }
        return asin(max(-1, min(1, field.dot(down.normalized) / length))) * 180 / .pi
    }
}
