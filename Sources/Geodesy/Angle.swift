#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers for angles in degrees: wrapping, differences and circular means.
///
/// Headings and bearings live in [0, 360) and differences in (−180, 180] (DESIGN.md §3). Every
/// helper is total: non-finite input gives NaN or `nil`, never a trap.
public enum Angle {
    /// Degrees in one full turn.
    public static let fullTurnDegrees = 360.0

    /// Degrees in half a turn.
    public static let halfTurnDegrees = 180.0

    /// Below this mean resultant length the samples cancel out and have no meaningful direction.
    ///
    /// Exactly opposed samples (0° and 180°) leave a resultant of about 1e-16 from rounding in
    /// `sin` and `cos`; real, clustered data has a length near 1. The gap is wide enough that the
    /// exact value is not critical.
    public static let minimumMeanResultantLength = 1e-9

    private static let radiansPerDegree = Double.pi / halfTurnDegrees

    /// Wraps an angle into [0, 360).
    ///
    /// `-0.0` becomes `0.0`, and a tiny negative angle such as `-1e-20` becomes `0.0` rather than
    /// `360.0` (adding 360 to it rounds to exactly 360). NaN and ±infinity give NaN.
    ///
    /// - Parameter degrees: Any angle in degrees.
    /// - Returns: The same direction in [0, 360), or NaN for non-finite input.
    public static func normalized(_ degrees: Double) -> Double {
        // `truncatingRemainder` is exact, so even huge angles keep their true position on the
        // circle; the remainder has the sign of `degrees`.
        var wrapped = degrees.truncatingRemainder(dividingBy: fullTurnDegrees)
        if wrapped < 0 {
            wrapped += fullTurnDegrees
        }
        // Also catches -0.0 (which compares equal to 0) and a negative sliver that rounded up to
        // a full turn.
        if wrapped == 0 || wrapped >= fullTurnDegrees {
            return 0
        }
        return wrapped
    }

    /// Wraps an angle into (−180, 180].
    ///
    /// Exactly ±180 gives +180, so every direction has one representation.
    ///
    /// - Parameter degrees: Any angle in degrees.
    /// - Returns: The same direction in (−180, 180], or NaN for non-finite input.
    public static func signedNormalized(_ degrees: Double) -> Double {
        let wrapped = normalized(degrees)
        return wrapped > halfTurnDegrees ? wrapped - fullTurnDegrees : wrapped
    }

    /// The signed angle that turns `from` onto `to` the short way round, in (−180, 180].
    ///
    /// Positive means clockwise (to the right when both are bearings). Opposite directions give
    /// +180. Each angle is wrapped first, so huge inputs keep their precision.
    ///
    /// - Parameters:
    ///   - from: The starting direction in degrees, any range.
    ///   - to: The target direction in degrees, any range.
    /// - Returns: `to − from` wrapped into (−180, 180], or NaN if either is non-finite.
    public static func signedDifference(from: Double, to: Double) -> Double {
        // Both terms are in [0, 360), so their difference is in (−360, 360) and needs one more
        // wrap; subtracting the raw values instead would lose precision for huge angles.
        signedNormalized(normalized(to) - normalized(from))
    }

    /// The circular (vector) mean of a set of directions.
    ///
    /// Each direction is a unit vector; the mean is the direction of their sum, so 359° and 1°
    /// average to 0°, not 180°.
    ///
    /// - Parameter degrees: The directions in degrees, any range.
    /// - Returns: The mean direction in [0, 360), or `nil` when there are no samples, when any
    ///   sample is non-finite, or when the samples cancel out (for example 0° and 180°) so that
    ///   the mean resultant length is below ``minimumMeanResultantLength``.
    public static func circularMean(_ degrees: some Sequence<Double>) -> Double? {
        circularMean(weighted: degrees.lazy.map { (degrees: $0, weight: 1.0) })
    }

    /// The weighted circular mean of a set of directions.
    ///
    /// Each direction is a vector whose length is its weight; the mean is the direction of their
    /// sum.
    ///
    /// - Parameter samples: Pairs of a direction in degrees (any range) and a weight (≥ 0).
    /// - Returns: The mean direction in [0, 360), or `nil` when the total weight is zero, when any
    ///   direction or weight is non-finite or any weight is negative, or when the samples cancel
    ///   out (mean resultant length below ``minimumMeanResultantLength``).
    public static func circularMean(
        weighted samples: some Sequence<(degrees: Double, weight: Double)>
    ) -> Double? {
        var sumSine = 0.0
        var sumCosine = 0.0
        var totalWeight = 0.0
        for sample in samples {
            guard sample.degrees.isFinite, sample.weight.isFinite, sample.weight >= 0 else {
                return nil
            }
            // Wrapping into (−180, 180] first makes mirror-image samples (−1°, +1°) produce
            // exactly opposite sines, so their sum is exactly zero.
            let radians = signedNormalized(sample.degrees) * radiansPerDegree
            sumSine += sample.weight * sin(radians)
            sumCosine += sample.weight * cos(radians)
            totalWeight += sample.weight
        }
        guard totalWeight > 0, totalWeight.isFinite else {
            return nil
        }
        let meanResultantLength = hypot(sumSine, sumCosine) / totalWeight
        guard meanResultantLength >= minimumMeanResultantLength else {
            return nil
        }
        return normalized(atan2(sumSine, sumCosine) / radiansPerDegree)
    }
}
