/// A 3×3 matrix, row by row: soft-iron corrections, rotations, covariance.
public struct Matrix3: Sendable, Hashable, CustomStringConvertible {
    /// The rows.
    public var row0, row1, row2: Vector3

    /// A matrix from its rows.
    public init(_ row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// A matrix from nested arrays `[[a, b, c], [d, e, f], [g, h, i]]`; nil unless 3×3.
    public init?(_ values: [[Double]]) {
        guard values.count == 3, values.allSatisfy({ $0.count == 3 }) else { return nil }
        self.init(
            Vector3(values[0][0], values[0][1], values[0][2]), Vector3(values[1][0], values[1][1], values[1][2]),
            Vector3(values[2][0], values[2][1], values[2][2]))
    }

    /// The identity.
    public static let identity = Matrix3(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// A diagonal matrix.
    public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    /// Element (row, column), 0-based.
    public subscript(row: Int, column: Int) -> Double {
        get {
            let r = row == 0 ? row0 : row == 1 ? row1 : row2
            return column == 0 ? r.x : column == 1 ? r.y : r.z
        }
        set {
            var r = row == 0 ? row0 : row == 1 ? row1 : row2
            if column == 0 { r.x = newValue } else if column == 1 { r.y = newValue } else { r.z = newValue }
            if row == 0 { row0 = r } else if row == 1 { row1 = r } else { row2 = r }
        }
    }

    /// The nested-array form.
    public var array: [[Double]] { (0..<3).map { r in (0..<3).map { c in self[r, c] } } }

    /// `M·v`.
    public static func * (m: Matrix3, v: Vector3) -> Vector3 { Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v)) }

    /// `A·B`.
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(
            Vector3(a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)),
            Vector3(a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)),
            Vector3(a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)))
    }

    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2) }
    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2) }
    public static func * (a: Matrix3, s: Double) -> Matrix3 { Matrix3(a.row0 * s, a.row1 * s, a.row2 * s) }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(
            Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y),
            Vector3(row0.z, row1.z, row2.z))
    }

    /// The determinant.
    public var determinant: Double { row0.dot(row1.cross(row2)) }

    /// The inverse, or nil when the matrix is (nearly) singular.
    public var inverse: Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        // Columns of the adjugate are cross products of rows.
        let c0 = row1.cross(row2)
        let c1 = row2.cross(row0)
        let c2 = row0.cross(row1)
        return Matrix3(c0, c1, c2).transposed * (1 / det)
    }

    /// The Frobenius norm.
    public var frobeniusNorm: Double {
        (row0.dot(row0) + row1.dot(row1) + row2.dot(row2)).squareRoot()
    }

    /// Eigenvalues and unit eigenvectors (as the columns of `vectors`) of a symmetric matrix, by
    /// Jacobi rotations; exact to rounding for 3×3.
    public var symmetricEigen: (values: Vector3, vectors: Matrix3) {
        var a = self
        var v = Matrix3.identity
        for _ in 0..<50 {
            // The largest off-diagonal element decides the next rotation.
            var (p, q) = (0, 1)
            if abs(a[0, 2]) > abs(a[p, q]) { (p, q) = (0, 2) }
            if abs(a[1, 2]) > abs(a[p, q]) { (p, q) = (1, 2) }
            let off = abs(a[p, q])
            if off < 1e-15 * max(1, abs(a[0, 0]) + abs(a[1, 1]) + abs(a[2, 2])) { break }
            let theta = (a[q, q] - a[p, p]) / (2 * a[p, q])
            let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot()
            let s = t * c
            var rotation = Matrix3.identity
            rotation[p, p] = c
            rotation[q, q] = c
            rotation[p, q] = s
            rotation[q, p] = -s
            a = rotation.transposed * a * rotation
            v = v * rotation
        }
        return (Vector3(a[0, 0], a[1, 1], a[2, 2]), v)
    }

    public var description: String { "[\(row0), \(row1), \(row2)]" }
}
