extension MagneticModel {
    /// Field components in a north-east-down frame, nanotesla (or nanotesla per year for a
    /// rate).
    typealias NorthEastDown = (north: Double, east: Double, down: Double)

    /// Sums the spherical-harmonic series at a geocentric position: the field and its yearly
    /// rate, both in the geocentric frame (X′ north along the sphere, Y′ east, Z′ towards the
    /// centre). WMM technical report, equations for X′, Y′, Z′ and their time derivatives.
    ///
    /// The loop runs order m outside and degree n inside, so each Legendre value needs only
    /// the two before it in its column plus the running sectoral value: a handful of scalars,
    /// no table and no allocation. Three quantities are carried through the recursion:
    /// - P(n, m), for Z′;
    /// - dP(n, m)/dφ′, for X′, by differentiating the recursion itself (d sin φ′ = cos φ′ dφ′,
    ///   d cos φ′ = −sin φ′ dφ′), which never divides by cos φ′;
    /// - Q(n, m) = P(n, m) / cos φ′ for m ≥ 1, for Y′. Every P(n, m) with m ≥ 1 carries a
    ///   factor cos φ′ and the recursions are linear, so Q follows the same recursion from
    ///   Q(1, 1) = 1. The 1/cos φ′ in Y′ cancels without a division and stays exact at a pole.
    ///
    /// - Parameters:
    ///   - position: Where to evaluate.
    ///   - yearsSinceEpoch: t − epoch, years; may be negative.
    /// - Returns: The geocentric field (nT) and its rate (nT/yr).
    func geocentricField(
        at position: GeocentricSphericalPosition, yearsSinceEpoch: Double
    ) -> (field: NorthEastDown, rate: NorthEastDown) {
        let sinLat = position.sinLatitude
        let cosLat = position.cosLatitude
        let radiusRatio = Self.referenceRadiusKilometers / position.radiusKilometers

        var epochField: NorthEastDown = (0.0, 0.0, 0.0)
        var rate: NorthEastDown = (0.0, 0.0, 0.0)

        // cos(mλ) and sin(mλ), advanced by the angle-addition formulas as m grows.
        var cosOrderLongitude = 1.0
        var sinOrderLongitude = 0.0
        // Sectoral values P(m, m), dP(m, m)/dφ′ and Q(m, m), from m = 1 on.
        var sectoralP = cosLat
        var sectoralDerivative = -sinLat
        var sectoralQ = 1.0
        // (a/r)^(m+2): the radial factor of the sectoral degree n = m.
        var sectoralRadialFactor = radiusRatio * radiusRatio * radiusRatio

        // The unsafe view only drops bounds checks in this hot loop: every index comes from
        // `SphericalHarmonicTerm.index` with 1 ≤ n ≤ maximumDegree and 0 ≤ m ≤ n, and `terms`
        // always holds all of them (see `init`).
        terms.withUnsafeBufferPointer { terms in
            for m in 0...Self.maximumDegree {
                if m >= 2 {
                    let scale = terms[SphericalHarmonicTerm.index(degree: m, order: m)]
                        .sectoralFactor
                    sectoralDerivative = scale * (cosLat * sectoralDerivative - sinLat * sectoralP)
                    sectoralP = scale * cosLat * sectoralP
                    sectoralQ = scale * cosLat * sectoralQ
                }
                if m >= 1 {
                    let cosine = cosOrderLongitude * position.cosLongitude
                        - sinOrderLongitude * position.sinLongitude
                    let sine = sinOrderLongitude * position.cosLongitude
                        + cosOrderLongitude * position.sinLongitude
                    cosOrderLongitude = cosine
                    sinOrderLongitude = sine
                }
                let order = Double(m)

                // The column starts at its first degree with a coefficient: n = 1 for m = 0
                // (degree 0, the monopole, has none), else the sectoral n = m. The `previous`
                // values are one degree lower: P(0, 0) = 1 for m = 0, zero above the diagonal.
                let firstDegree = Swift.max(m, 1)
                var p: Double, derivative: Double, q: Double
                var previousP: Double, previousDerivative = 0.0, previousQ = 0.0
                var radialFactor: Double
                if m == 0 {
                    (p, derivative, q) = (sinLat, cosLat, 0.0)
                    previousP = 1.0
                    radialFactor = radiusRatio * radiusRatio * radiusRatio
                } else {
                    (p, derivative, q) = (sectoralP, sectoralDerivative, sectoralQ)
                    previousP = 0.0
                    radialFactor = sectoralRadialFactor
                    sectoralRadialFactor *= radiusRatio
                }

                // Index of (n, m) in file order; it grows by n + 1 from one degree to the next.
                var index = SphericalHarmonicTerm.index(degree: firstDegree, order: m)
                for n in firstDegree...Self.maximumDegree {
                    let term = terms[index]
                    index += n + 1
                    if n > firstDegree {
                        let a = term.columnFactor
                        let b = term.twoBackFactor
                        let nextP = a * sinLat * p - b * previousP
                        let nextDerivative =
                            a * (sinLat * derivative + cosLat * p) - b * previousDerivative
                        let nextQ = a * sinLat * q - b * previousQ
                        (previousP, previousDerivative, previousQ) = (p, derivative, q)
                        (p, derivative, q) = (nextP, nextDerivative, nextQ)
                        radialFactor *= radiusRatio
                    }
                    let inPhase = term.g * cosOrderLongitude + term.h * sinOrderLongitude
                    let quadrature = term.g * sinOrderLongitude - term.h * cosOrderLongitude
                    let inPhaseRate =
                        term.gRate * cosOrderLongitude + term.hRate * sinOrderLongitude
                    let quadratureRate =
                        term.gRate * sinOrderLongitude - term.hRate * cosOrderLongitude
                    let downFactor = Double(n + 1) * radialFactor
                    let eastFactor = order * radialFactor

                    epochField.north -= radialFactor * inPhase * derivative
                    epochField.east += eastFactor * quadrature * q
                    epochField.down -= downFactor * inPhase * p
                    rate.north -= radialFactor * inPhaseRate * derivative
                    rate.east += eastFactor * quadratureRate * q
                    rate.down -= downFactor * inPhaseRate * p
                }
            }
        }
        // The series is linear in the coefficients and g(t) = g + (t − epoch) · ġ, so the field
        // at t is the field of the epoch coefficients plus (t − epoch) times the field of the
        // rates: one pass over the terms gives both.
        let field: NorthEastDown = (
            epochField.north + yearsSinceEpoch * rate.north,
            epochField.east + yearsSinceEpoch * rate.east,
            epochField.down + yearsSinceEpoch * rate.down)
        return (field, rate)
    }
}
