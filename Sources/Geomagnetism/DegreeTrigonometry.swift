#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Trigonometry on angles in degrees, the only place this target calls libm.
///
/// The sine and cosine reduce the angle to [−45°, 45°] before converting to radians, so that
/// every multiple of 90° gives an exact 0 or ±1. A pole at exactly ±90° then has a cosine of
/// exactly zero, which the spherical-harmonic synthesis relies on to be exact there (a plain
/// `cos(90 * .pi / 180)` is 6.1e-17, not zero).
enum DegreeTrigonometry {
    /// Degrees in a full turn.
    static let degreesPerTurn = 360.0
    /// Degrees in a half turn: the upper end of the wrapped range (−180°, 180°].
    static let degreesPerHalfTurn = 180.0
    /// Degrees in a quarter turn: the unit of exact reduction.
    static let degreesPerQuarterTurn = 90.0
    /// Radians per degree.
    static let radiansPerDegree = Double.pi / 180.0
    /// Degrees per radian.
    static let degreesPerRadian = 180.0 / Double.pi
    /// Quarter turns in a full turn, for picking the quadrant.
    private static let quadrantsPerTurn = 4

    /// Sine and cosine of an angle in degrees, exact at multiples of 90°.
    ///
    /// A non-finite angle gives NaN for both.
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (.nan, .nan) }
        // remainder() is exact, so the reduction adds no rounding error.
        var reduced = remainder(degrees, degreesPerTurn)
        let quarterTurns = (reduced / degreesPerQuarterTurn).rounded()
        reduced -= degreesPerQuarterTurn * quarterTurns
        let radians = reduced * radiansPerDegree
        let sine = sin(radians)
        let cosine = cos(radians)
        // quarterTurns is in −2...2 here, so the conversion cannot trap.
        let quadrant =
            (Int(quarterTurns) % quadrantsPerTurn + quadrantsPerTurn) % quadrantsPerTurn
        // Adding +0.0 turns a −0.0 into +0.0 so results do not depend on the sign of zero.
        switch quadrant {
        case 0: return (sine + 0.0, cosine + 0.0)
        case 1: return (cosine + 0.0, -sine + 0.0)
        case 2: return (-sine + 0.0, -cosine + 0.0)
        default: return (-cosine + 0.0, sine + 0.0)
        }
    }

    /// The angle of the vector (x, y) from the x axis towards the y axis, in degrees in
    /// [−180°, 180°].
    static func atan2Degrees(y: Double, x: Double) -> Double {
        atan2(y, x) * degreesPerRadian
    }

    /// An angle in degrees wrapped to (−180°, 180°]; NaN stays NaN.
    static func wrappedDegrees(_ degrees: Double) -> Double {
        let reduced = remainder(degrees, degreesPerTurn)
        return reduced == -degreesPerHalfTurn ? degreesPerHalfTurn : reduced
    }
}
