#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shortest paths on an ellipsoid of revolution, after C. F. F. Karney, "Algorithms for
/// geodesics", Journal of Geodesy 87 (2013) 43–55, doi:10.1007/s00190-012-0578-z.
///
/// The series are carried to sixth order in the third flattening, which is accurate to about
/// 15 nm on the Earth. Unlike Vincenty's method the inverse solution converges for every pair
/// of points, nearly antipodal ones included.
public struct Geodesic: Sendable {
    /// The WGS84 ellipsoid, which GPS positions refer to.
    public static let wgs84 = Geodesic(equatorialRadiusMeters: 6_378_137, flattening: 1 / 298.257_223_563)

    /// Equatorial radius `a`, in metres.
    public let equatorialRadiusMeters: Double
    /// Flattening `f = (a − b) / a`; 0 for a sphere.
    public let flattening: Double

    /// Polar semi-axis `b`, in metres.
    let polarRadiusMeters: Double
    /// `1 − f`.
    let oneMinusFlattening: Double
    /// Second eccentricity squared, `e′² = (a² − b²) / b²`.
    let secondEccentricitySquared: Double
    /// Third flattening `n = (a − b) / (a + b)`, the small parameter of every series.
    let thirdFlattening: Double
    /// Below this `sin σ12` a line counts as short enough to solve without iteration
    /// (Karney 2013, §5, the `ε` test for the short-line solution).
    let shortLineThreshold: Double
    /// Coefficients of `A3(ε) = Σ a3[j] εʲ` (Karney 2013, eq. 24), fixed for the ellipsoid.
    let a3Coefficients: [Double]
    /// Coefficients of `C3l(ε) = Σ c3[6(l − 1) + j] εʲ` for l = 1…5 (Karney 2013, eq. 25).
    let c3Coefficients: [Double]

    /// Creates a solver for an oblate ellipsoid or a sphere.
    ///
    /// - Parameters:
    ///   - equatorialRadiusMeters: `a`, positive.
    ///   - flattening: `f` in [0, 1); prolate ellipsoids (f < 0) are not supported.
    public init(equatorialRadiusMeters: Double, flattening: Double) {
        precondition(
            equatorialRadiusMeters > 0 && equatorialRadiusMeters.isFinite,
            "an ellipsoid needs a positive, finite equatorial radius")
        precondition(flattening >= 0 && flattening < 1, "only oblate ellipsoids and spheres are supported")
        self.equatorialRadiusMeters = equatorialRadiusMeters
        self.flattening = flattening
        let f = flattening
        oneMinusFlattening = 1 - f
        polarRadiusMeters = equatorialRadiusMeters * (1 - f)
        let eccentricitySquared = f * (2 - f)
        secondEccentricitySquared = eccentricitySquared / ((1 - f) * (1 - f))
        let n = f / (2 - f)
        thirdFlattening = n
        let sqrtEpsilon = Double.ulpOfOne.squareRoot()
        shortLineThreshold = 0.1 * sqrtEpsilon / (max(0.001, f) * min(1, 1 - f / 2) / 2).squareRoot()

        a3Coefficients = [
            1,
            (n - 1) / 2,
            (n * (3 * n - 1) - 2) / 8,
            ((-n - 3) * n - 1) / 16,
            (-2 * n - 3) / 64,
            -3.0 / 128,
        ]
        c3Coefficients = [
            0, (1 - n) / 4, (1 - n * n) / 8, ((3 - n) * n + 3) / 64, (2 * n + 5) / 128, 3.0 / 128,
            0, 0, ((n - 3) * n + 2) / 32, ((-3 * n - 2) * n + 3) / 64, (n + 3) / 128, 5.0 / 256,
            0, 0, 0, (n * (5 * n - 9) + 5) / 192, (9 - 10 * n) / 384, 7.0 / 512,
            0, 0, 0, 0, (7 - 14 * n) / 512, 7.0 / 512,
            0, 0, 0, 0, 0, 21.0 / 2560,
        ]
    }
}

// MARK: - Series in ε (Karney 2013, eqs. 17, 18, 24, 25, 42, 43)

extension Geodesic {
    /// Coefficients `c[k − 1]` of a Fourier series `Σ c_k sin(2kσ)`, k = 1…6.
    typealias SineSeries = InlineArray<6, Double>

    /// `A1 − 1`, the scale of the distance integral I1 (eq. 17).
    @inline(__always)
    static func a1MinusOne(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (eps2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// `A2 − 1`, the scale of the reduced-length integral I2 (eq. 42).
    @inline(__always)
    static func a2MinusOne(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (-11 * eps2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// The Fourier coefficients `C1l` of I1 (eq. 18).
    @inline(__always)
    static func c1(_ eps: Double) -> SineSeries {
        let eps2 = eps * eps
        var power = eps
        var c: SineSeries = .init(repeating: 0)
        c[0] = power * (eps2 * (6 - eps2) - 16) / 32
        power *= eps
        c[1] = power * (eps2 * (64 - 9 * eps2) - 128) / 2048
        power *= eps
        c[2] = power * (9 * eps2 - 16) / 768
        power *= eps
        c[3] = power * (3 * eps2 - 5) / 512
        power *= eps
        c[4] = -7 * power / 1280
        power *= eps
        c[5] = -7 * power / 2048
        return c
    }

    /// The Fourier coefficients `C2l` of I2 (eq. 43).
    @inline(__always)
    static func c2(_ eps: Double) -> SineSeries {
        let eps2 = eps * eps
        var power = eps
        var c: SineSeries = .init(repeating: 0)
        c[0] = power * (eps2 * (eps2 + 2) + 16) / 32
        power *= eps
        c[1] = power * (eps2 * (35 * eps2 + 64) + 384) / 2048
        power *= eps
        c[2] = power * (15 * eps2 + 80) / 768
        power *= eps
        c[3] = power * (7 * eps2 + 35) / 512
        power *= eps
        c[4] = 63 * power / 1280
        power *= eps
        c[5] = 77 * power / 2048
        return c
    }

    /// `A3(ε)`, the scale of the longitude integral I3 (eq. 24).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        var sum = 0.0
        for j in stride(from: 5, through: 0, by: -1) { sum = sum * eps + a3Coefficients[j] }
        return sum
    }

    /// The Fourier coefficients `C3l` of I3 (eq. 25); the sixth is zero at this order.
    @inline(__always)
    func c3(_ eps: Double) -> SineSeries {
        var c: SineSeries = .init(repeating: 0)
        var power = 1.0
        for l in 0..<5 {
            power *= eps
            var sum = 0.0
            for j in stride(from: 5, through: l + 1, by: -1) { sum = sum * eps + c3Coefficients[6 * l + j] }
            c[l] = sum * power
        }
        return c
    }

    /// `Σ c_k sin(2kσ)` for k = 1…6 by Clenshaw's recurrence, from sin σ and cos σ.
    @inline(__always)
    static func sum(_ c: SineSeries, sin s: Double, cos co: Double) -> Double {
        let twoCos2 = 2 * (co - s) * (co + s)
        var b1 = 0.0
        var b2 = 0.0
        for k in stride(from: 5, through: 0, by: -1) {
            let b = twoCos2 * b1 - b2 + c[k]
            b2 = b1
            b1 = b
        }
        return 2 * s * co * b1
    }
}
