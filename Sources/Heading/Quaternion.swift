#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotation as a unit quaternion `w + xi + yj + zk` (Hamilton's convention): `q.rotate(v)`
/// is `q v q*`. An orientation `q` takes body-frame vectors into the reference frame.
public struct Quaternion: Sendable, Hashable {
    public var w, x, y, z: Double

    /// A quaternion from its components (not normalized).
    public init(_ w: Double, _ x: Double, _ y: Double, _ z: Double) {
        (self.w, self.x, self.y, self.z) = (w, x, y, z)
    }

    /// No rotation.
    public static let identity = Quaternion(1, 0, 0, 0)

    /// The rotation by `|v|` radians about `v`: the exact rotation of a body turning at a
    /// constant rate ω for dt, with `v = ω·dt`. Exact at any rate, where summing angles (or
    /// a first-order step) drifts when the axis is not fixed.
    public init(rotationVector v: Vector3) {
        let angle = v.length
        guard angle > 1e-12 else {
            // sin(a/2)/a → 1/2: the first-order term, exact to rounding here.
            self = Quaternion(1, v.x / 2, v.y / 2, v.z / 2).normalized
            return
        }
        let s = sin(angle / 2) / angle
        self.init(cos(angle / 2), v.x * s, v.y * s, v.z * s)
    }

    /// The product `self ⊗ other`: `other` first, then `self`.
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// The inverse rotation.
    public var conjugate: Quaternion { Quaternion(w, -x, -y, -z) }

    /// Scaled to length 1 (rounding drifts it over many products); a zero quaternion becomes
    /// the identity.
    public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        return n > 0 && n.isFinite ? Quaternion(w / n, x / n, y / n, z / n) : .identity
    }

    /// `v` rotated: `q v q*`, without building the product.
    public func rotate(_ v: Vector3) -> Vector3 {
        // v + 2w (u × v) + 2 u × (u × v), with u the vector part.
        let u = Vector3(x, y, z)
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// The body's x axis in the reference frame: its first column as a matrix.
    public var xAxis: Vector3 { Vector3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)) }

    /// The rotation as a matrix (body to reference frame).
    public var matrix: Matrix3 {
        Matrix3(
            Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }
}
