#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Trigonometry in degrees that is exact at multiples of 90° and keeps round-off low elsewhere.
///
/// A geodesic solver must see `sin(180°) == 0` exactly and must not lose the tiny error term of a
/// longitude difference: both decide which branch of the inverse problem runs (meridional,
/// equatorial, nearly antipodal). These helpers reduce arguments exactly in degrees before any
/// conversion to radians, as Karney (2013, §2 and appendix) recommends.
enum ExactDegrees {
    static let radiansPerDegree = Double.pi / 180

    /// Sine and cosine of `degrees + errorDegrees`, reducing `degrees` exactly to [−45°, 45°]
    /// first so that multiples of 90° give exact zeros and ones.
    @inline(__always)
    static func sinCos(_ degrees: Double, plus errorDegrees: Double = 0) -> (sin: Double, cos: Double) {
        var quadrant: Int32 = 0
        let reduced = rounded(remquo(degrees, 90, &quadrant) + errorDegrees) * radiansPerDegree
        let s = sin(reduced)
        let c = cos(reduced)
        var result: (sin: Double, cos: Double)
        switch quadrant & 3 {
        case 0: result = (s, c)
        case 1: result = (c, -s)
        case 2: result = (-s, -c)
        default: result = (-c, s)
        }
        // C11 Annex F: cos(±0) is +0 and sin keeps the sign of a zero argument.
        result.cos += 0
        if result.sin == 0 { result.sin = copysign(result.sin, degrees) }
        return result
    }

    /// `atan2` in degrees, exact when the answer is a multiple of 90°; result in [−180°, 180°].
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        // Fold into the first octant so that atan2 sees its most accurate range, then unfold.
        var x = x
        var y = y
        var octantFold = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            octantFold = 2
        }
        if x.sign == .minus {
            x = -x
            octantFold += 1
        }
        let angle = atan2(y, x) / radiansPerDegree
        switch octantFold {
        case 1: return copysign(180, y) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// Rounds angles below 1/16° onto the spacing of doubles near 1/16° (about 1e−17°), so
    /// that an angle of `1e−300` and an angle of `0` take the same branch of the solver.
    @inline(__always)
    static func rounded(_ degrees: Double) -> Double {
        let grid = 1.0 / 16
        var magnitude = abs(degrees)
        let difference = grid - magnitude
        if difference > 0 { magnitude = grid - difference }
        return copysign(magnitude, degrees)
    }

    /// Latitude checked for range: NaN when |latitude| > 90°, so that bad input cannot give a
    /// plausible-looking answer.
    @inline(__always)
    static func checkedLatitude(_ degrees: Double) -> Double {
        abs(degrees) > 90 ? .nan : degrees
    }

    /// Exact sum with its rounding error: `s + error == a + b` exactly (Knuth's TwoSum).
    @inline(__always)
    static func twoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
        let s = a + b
        var aRounded = s - b
        var bRounded = s - aRounded
        aRounded -= a
        bRounded -= b
        return (s, s != 0 ? 0 - (aRounded + bRounded) : s)
    }

    /// The longitude difference `to − from` reduced to [−180°, 180°], with the rounding error
    /// of that reduction, so that a difference of almost exactly 180° keeps its sign and size.
    static func difference(from: Double, to: Double) -> (degrees: Double, errorDegrees: Double) {
        let first = twoSum(remainder(-from, 360), remainder(to, 360))
        let second = twoSum(remainder(first.sum, 360), first.error)
        var degrees = second.sum
        let error = second.error
        if degrees == 0 || abs(degrees) == 180 {
            // The sign of an exact 0° or 180° comes from the rounding error, or failing that
            // from the plain difference, so that both endpoints agree on the side.
            degrees = copysign(degrees, error == 0 ? to - from : -error)
        }
        return (degrees, error)
    }
}
