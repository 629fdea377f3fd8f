/// One (n, m) term of the synthesis: the Gauss coefficients plus the constants of the
/// Schmidt semi-normalised Legendre recursion for that degree and order, precomputed once per
/// model so that an evaluation does no square roots beyond the geodetic conversion.
///
/// With x = sin φ′ and c = cos φ′ the recursions are
/// - sectoral: P(n, n) = s(n) · c · P(n−1, n−1), with s(n) = √((2n − 1) / 2n) for n ≥ 2 and
///   P(1, 1) = c (the m = 0 normalisation differs, so n = 1 is seeded, not scaled);
/// - along a column: P(n, m) = a(n, m) · x · P(n−1, m) − b(n, m) · P(n−2, m), with
///   a = (2n − 1) / √(n² − m²) and b = √((n − 1)² − m²) / √(n² − m²).
struct SphericalHarmonicTerm: Sendable {
    /// g at the epoch, nanotesla.
    var g = 0.0
    /// h at the epoch, nanotesla.
    var h = 0.0
    /// ġ, nanotesla per year.
    var gRate = 0.0
    /// ḣ, nanotesla per year.
    var hRate = 0.0
    /// a(n, m) of the column recursion; meaningful for n > m.
    let columnFactor: Double
    /// b(n, m) of the column recursion; meaningful for n > m.
    let twoBackFactor: Double
    /// s(n) of the sectoral recursion; meaningful for n = m ≥ 2.
    let sectoralFactor: Double

    /// The recursion constants for degree n and order m, with zero coefficients.
    init(degree n: Int, order m: Int) {
        let degree = Double(n)
        let order = Double(m)
        if n > m {
            let norm = (degree * degree - order * order).squareRoot()
            columnFactor = (2.0 * degree - 1.0) / norm
            twoBackFactor = ((degree - 1.0) * (degree - 1.0) - order * order).squareRoot() / norm
        } else {
            columnFactor = 0.0
            twoBackFactor = 0.0
        }
        sectoralFactor =
            n >= 2 && n == m ? ((2.0 * degree - 1.0) / (2.0 * degree)).squareRoot() : 1.0
    }

    /// The position of term (n, m), n ≥ 1, in a table ordered as a WMM coefficient file:
    /// by degree, then by order.
    static func index(degree n: Int, order m: Int) -> Int {
        n * (n + 1) / 2 + m - 1
    }

    /// Number of terms for a model of the given maximum degree.
    static func count(maximumDegree: Int) -> Int {
        index(degree: maximumDegree, order: maximumDegree) + 1
    }
}
