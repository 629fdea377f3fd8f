#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The inverse problem (Karney 2013, §§4–5): reduce to a canonical configuration by symmetry,
// solve meridional and equatorial lines directly, short lines from a spherical start, and the
// rest by Newton's method on the azimuth at the first point, bracketed so that it always
// converges. Nearly antipodal points get their starting azimuth from the astroid (§5, eq. 55).

extension Geodesic {
    /// Solves the inverse problem between two coordinates: the path from `start` to `end`.
    ///
    /// - Returns: azimuths at both ends and the distance.
    public func inverse(from start: Coordinate, to end: Coordinate) -> GeodesicInverse {
        inverse(
            latitude1Degrees: start.latitudeDegrees, longitude1Degrees: start.longitudeDegrees,
            latitude2Degrees: end.latitudeDegrees, longitude2Degrees: end.longitudeDegrees)
    }

    /// Solves the inverse problem between two points given in degrees.
    ///
    /// Longitudes may be any finite value; latitudes outside [−90, 90] give NaN results. At a
    /// pole the azimuths follow the limit along the given longitude, and for coincident points
    /// the azimuths are conventional (0° or 180°) with a distance of exactly 0.
    ///
    /// - Parameters:
    ///   - latitude1Degrees: geodetic latitude of the first point.
    ///   - longitude1Degrees: longitude of the first point.
    ///   - latitude2Degrees: geodetic latitude of the second point.
    ///   - longitude2Degrees: longitude of the second point.
    /// - Returns: azimuths at both ends and the distance.
    public func inverse(
        latitude1Degrees: Double, longitude1Degrees: Double,
        latitude2Degrees: Double, longitude2Degrees: Double
    ) -> GeodesicInverse {
        let tiny = Double.leastNormalMagnitude.squareRoot()

        // Make the longitude difference positive; keep its rounding error for near-180° cases.
        var (lon12, lon12Error) = ExactDegrees.difference(from: longitude1Degrees, to: longitude2Degrees)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12Error *= lonSign
        let lam12 = lon12 * ExactDegrees.radiansPerDegree
        let (slam12, clam12) = ExactDegrees.sinCos(lon12, plus: lon12Error)
        // The supplement 180° − lon12, carried exactly, decides the equatorial case below.
        let lon12Supplement = (180 - lon12) - lon12Error

        // Make |lat1| ≥ |lat2| and lat1 ≤ 0, so that point 1 is the one closer to a pole.
        var lat1 = ExactDegrees.rounded(ExactDegrees.checkedLatitude(latitude1Degrees))
        var lat2 = ExactDegrees.rounded(ExactDegrees.checkedLatitude(latitude2Degrees))
        let swapSign: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapSign < 0 {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        // Reduced latitudes β, with cos β kept away from zero so a pole behaves as a limit.
        var (sbet1, cbet1) = ExactDegrees.sinCos(lat1)
        sbet1 *= oneMinusFlattening
        normalize(&sbet1, &cbet1)
        cbet1 = max(tiny, cbet1)
        var (sbet2, cbet2) = ExactDegrees.sinCos(lat2)
        sbet2 *= oneMinusFlattening
        normalize(&sbet2, &cbet2)
        cbet2 = max(tiny, cbet2)

        // Points on the same or mirrored parallels must compare equal exactly, or the solver
        // can take a singular path (Karney 2013, end of §4).
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }

        let dn1 = (1 + secondEccentricitySquared * square(sbet1)).squareRoot()
        let dn2 = (1 + secondEccentricitySquared * square(sbet2)).squareRoot()

        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var s12 = 0.0

        // Meridional lines: the azimuth is known, only σ12 and the length remain.
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1
            let csig1 = calp1 * cbet1
            let ssig2 = sbet2
            let csig2 = calp2 * cbet2
            var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            let lengths = self.lengths(
                eps: thirdFlattening, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                ssig2: ssig2, csig2: csig2, dn2: dn2)
            var s12b = lengths.distance
            if sig12 < 1 || lengths.reducedLength >= 0 {
                // Round the tiny residue of coincident points to an exact zero distance.
                if sig12 < 3 * tiny || (sig12 < Double.ulpOfOne && (s12b < 0 || lengths.reducedLength < 0)) {
                    sig12 = 0
                    s12b = 0
                }
                s12 = s12b * polarRadiusMeters
            } else {
                // A negative reduced length means a conjugate point lies on the way: the
                // meridian is not the shortest path (only on prolate ellipsoids).
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
            // Equatorial lines shorter than (1 − f)·180° follow the equator.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12 = equatorialRadiusMeters * lam12
        } else if !meridian {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if let shortLine = start.shortLine {
                salp2 = shortLine.salp2
                calp2 = shortLine.calp2
                s12 = shortLine.sig12 * polarRadiusMeters * shortLine.dnm
            } else {
                let solution = solveAzimuth(
                    sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                    slam12: slam12, clam12: clam12, salp1: salp1, calp1: calp1)
                salp1 = solution.salp1
                calp1 = solution.calp1
                salp2 = solution.salp2
                calp2 = solution.calp2
                s12 = solution.s12b * polarRadiusMeters
            }
        }

        // Undo the symmetry reductions.
        if swapSign < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign
        return GeodesicInverse(
            initialAzimuthDegrees: ExactDegrees.atan2Degrees(salp1, calp1),
            finalAzimuthDegrees: ExactDegrees.atan2Degrees(salp2, calp2),
            distanceMeters: 0 + s12)
    }

    // MARK: - Newton's method on α1 (§5)

    /// The result of the iterative solution: both azimuths and the distance over `b`.
    private struct IterativeSolution {
        var salp1, calp1, salp2, calp2, s12b: Double
    }

    /// Finds α1 such that the longitude difference of the geodesic matches λ12, by Newton's
    /// method with dλ/dα1 from the reduced length (eq. 46), falling back to bisection of a
    /// bracket that every step narrows. Converges in 2–3 steps for typical lines.
    private func solveAzimuth(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        slam12: Double, clam12: Double, salp1 startSalp1: Double, calp1 startCalp1: Double
    ) -> IterativeSolution {
        let tiny = Double.leastNormalMagnitude.squareRoot()
        let tol0 = Double.ulpOfOne
        let bisectionTolerance = tol0 * tol0.squareRoot()
        let newtonIterations = 20
        let maximumIterations = newtonIterations + Double.significandBitCount + 1 + 10

        var salp1 = startSalp1
        var calp1 = startCalp1
        var salp1a = tiny, calp1a = 1.0  // the bracket: λ12 too small at a …
        var salp1b = tiny, calp1b = -1.0  // … and too large at b
        var trial = LambdaTrial()
        var nearlyConverged = false
        var bracketExhausted = false
        for iteration in 0... {
            trial = lambda12(
                sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                wantsDerivative: iteration < newtonIterations)
            let v = trial.lam12
            // Written so that NaN also ends the loop.
            if bracketExhausted || !(abs(v) >= (nearlyConverged ? 8 : 1) * tol0)
                || iteration == maximumIterations
            {
                break
            }
            if v > 0 && (iteration > newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (iteration > newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            if iteration < newtonIterations && trial.dlam12 > 0 {
                let dalp1 = -v / trial.dlam12
                if abs(dalp1) < .pi {
                    let sdalp1 = sin(dalp1)
                    let cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        normalize(&salp1, &calp1)
                        // Where the slope vanishes convergence is only linear; then stop
                        // on an ε-based test instead of waiting for quadratic convergence.
                        nearlyConverged = abs(v) <= 16 * tol0
                        continue
                    }
                }
            }
            // The Newton step left the legal range: bisect the bracket instead.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            normalize(&salp1, &calp1)
            nearlyConverged = false
            bracketExhausted =
                abs(salp1a - salp1) + (calp1a - calp1) < bisectionTolerance
                || abs(salp1 - salp1b) + (calp1 - calp1b) < bisectionTolerance
        }
        let s12b = distance(
            eps: trial.eps, sig12: trial.sig12, ssig1: trial.ssig1, csig1: trial.csig1,
            ssig2: trial.ssig2, csig2: trial.csig2)
        return IterativeSolution(salp1: salp1, calp1: calp1, salp2: trial.salp2, calp2: trial.calp2, s12b: s12b)
    }

    // MARK: - Starting azimuth (§5)

    /// What the starting guess yields: always α1; for very short lines the whole solution.
    private struct InverseStart {
        var salp1: Double
        var calp1: Double
        var shortLine: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
    }

    /// A first α1 from the great circle on an auxiliary sphere (eqs. 49–51), which is already
    /// the answer for very short lines, or from the astroid near the antipode (eqs. 53–56).
    private func inverseStart(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> InverseStart {
        let tol1 = 200 * Double.ulpOfOne
        let antipodalStripWidth = 1000 * Double.ulpOfOne.squareRoot()
        let n = thirdFlattening

        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1  // sin(β2 − β1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1  // cos(β2 − β1)
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β2 + β1)
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5

        var somg12: Double
        var comg12: Double
        var dnm = 1.0
        if shortLine {
            // Scale λ to ω with the radius of curvature at the mid latitude (eq. 49).
            var sbetm2 = square(sbet1 + sbet2)
            sbetm2 /= sbetm2 + square(cbet1 + cbet2)
            dnm = (1 + secondEccentricitySquared * sbetm2).squareRoot()
            let omg12 = lam12 / (oneMinusFlattening * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * square(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * square(somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        var result: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
        if shortLine && ssig12 < shortLineThreshold {
            var salp2 = cbet1 * somg12
            var calp2 =
                sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? square(somg12) / (1 + comg12) : 1 - comg12)
            normalize(&salp2, &calp2)
            result = (atan2(ssig12, csig12), salp2, calp2, dnm)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * square(cbet1) {
            // Not near the antipode: the spherical guess is good enough for Newton's method.
        } else {
            // Near the antipode: scale to coordinates where the antipode is the origin and
            // solve the astroid for the starting azimuth.
            let lam12x = atan2(-slam12, -clam12)  // λ12 − π
            let k2 = square(sbet1) * secondEccentricitySquared
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamScale = flattening * cbet1 * a3(eps) * .pi
            let betScale = lamScale * cbet1
            let x = lam12x / lamScale
            let y = sbet12a / betScale
            if y > -tol1 && x > -1 - antipodalStripWidth {
                // On the strip next to the cut the astroid degenerates; α1 follows from x.
                salp1 = min(1, -x)
                calp1 = -(1 - square(salp1)).squareRoot()
            } else {
                let k = Self.astroid(x: x, y: y)
                let omg12a = lamScale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * square(somg12) / (1 - comg12)
            }
        }
        // Written so that NaN takes the second branch.
        if !(salp1 <= 0) {
            normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return InverseStart(salp1: salp1, calp1: calp1, shortLine: result)
    }

    /// The positive root `k` of the astroid equation
    /// `k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0` (Karney 2013, eq. 55).
    static func astroid(x: Double, y: Double) -> Double {
        let p = square(x)
        let q = square(y)
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else {
            // y = 0 on the inner part of the cut: the root is zero.
            return 0
        }
        let s = p * q / 4
        let r2 = square(r)
        let r3 = r * r2
        // The discriminant of the resolvent cubic, written to avoid cancellation.
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            // Choose the sign that avoids cancellation in t3.
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (square(u) + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + square(w)).squareRoot() + w)
    }

    // MARK: - λ12 as a function of α1 (§4)

    /// Everything one evaluation of λ12(α1) yields; the iteration keeps the last one.
    private struct LambdaTrial {
        var lam12 = 0.0, dlam12 = 0.0
        var salp2 = 0.0, calp2 = 0.0
        var sig12 = 0.0, ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0
    }

    /// The longitude difference reached by the geodesic that leaves point 1 at α1, minus the
    /// wanted one, and its derivative with respect to α1.
    private func lambda12(
        sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
        salp1: Double, calp1 startCalp1: Double, slam120: Double, clam120: Double,
        wantsDerivative: Bool
    ) -> LambdaTrial {
        var trial = LambdaTrial()
        var calp1 = startCalp1
        if sbet1 == 0 && calp1 == 0 {
            // The equatorial line was handled before; nudge off it to keep α0 defined.
            calp1 = -Double.leastNormalMagnitude.squareRoot()
        }
        // Clairaut: sin α0 = sin α1 cos β1.
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)

        // σ1 and ω1 from tan β1 = tan σ1 cos α1 and tan ω1 = sin α0 tan σ1.
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        normalize(&ssig1, &csig1)

        // α2 from Clairaut, written to stay exact on the symmetric case |β2| = −β1.
        trial.salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        trial.calp2 =
            cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? (square(calp1 * cbet1)
                + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
                .squareRoot() / cbet2
            : abs(calp1)
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = trial.calp2 * cbet2
        let comg2 = csig2
        normalize(&ssig2, &csig2)

        // σ12 and ω12, both limited to [0, π].
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω12 − λ12 target, computed as one angle to avoid cancellation.
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = square(calp0) * secondEccentricitySquared
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = self.c3(eps)
        let b312 = Self.sum(c3, sin: ssig2, cos: csig2) - Self.sum(c3, sin: ssig1, cos: csig1)
        let domg12 = -flattening * a3(eps) * salp0 * (sig12 + b312)
        trial.lam12 = eta + domg12

        if wantsDerivative {
            if trial.calp2 == 0 {
                trial.dlam12 = -2 * oneMinusFlattening * dn1 / sbet1
            } else {
                let m12b = reducedLength(
                    eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                    ssig2: ssig2, csig2: csig2, dn2: dn2)
                trial.dlam12 = m12b * (oneMinusFlattening / (trial.calp2 * cbet2))
            }
        }
        trial.sig12 = sig12
        trial.ssig1 = ssig1
        trial.csig1 = csig1
        trial.ssig2 = ssig2
        trial.csig2 = csig2
        trial.eps = eps
        return trial
    }

    // MARK: - Distance and reduced length (eqs. 38, 40–43)

    /// Distance s12 and reduced length m12 along σ12, both divided by `b`.
    @inline(__always)
    private func lengths(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (distance: Double, reducedLength: Double) {
        let a1m1 = Self.a1MinusOne(eps)
        let a2m1 = Self.a2MinusOne(eps)
        let c1 = Self.c1(eps)
        let c2 = Self.c2(eps)
        let a1 = 1 + a1m1
        let a2 = 1 + a2m1
        let b1 = Self.sum(c1, sin: ssig2, cos: csig2) - Self.sum(c1, sin: ssig1, cos: csig1)
        let b2 = Self.sum(c2, sin: ssig2, cos: csig2) - Self.sum(c2, sin: ssig1, cos: csig1)
        let distance = a1 * (sig12 + b1)
        let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - a2 * b2)
        // The parentheses keep the cancellation exact for coincident points.
        let reducedLength = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (distance, reducedLength)
    }

    /// The distance s12 alone, divided by `b` (eq. 38 with eq. 15).
    @inline(__always)
    private func distance(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    ) -> Double {
        let c1 = Self.c1(eps)
        let b1 = Self.sum(c1, sin: ssig2, cos: csig2) - Self.sum(c1, sin: ssig1, cos: csig1)
        return (1 + Self.a1MinusOne(eps)) * (sig12 + b1)
    }

    /// The reduced length m12 alone, divided by `b`: the derivative in Newton's method. Summing
    /// the two series as one (`A1·C1l − A2·C2l`) saves a Clenshaw pass per iteration.
    @inline(__always)
    private func reducedLength(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> Double {
        let a1m1 = Self.a1MinusOne(eps)
        let a2m1 = Self.a2MinusOne(eps)
        let a1 = 1 + a1m1
        let a2 = 1 + a2m1
        let c1 = Self.c1(eps)
        var combined = Self.c2(eps)
        for k in 0..<6 { combined[k] = a1 * c1[k] - a2 * combined[k] }
        let j12 = (a1m1 - a2m1) * sig12
            + (Self.sum(combined, sin: ssig2, cos: csig2) - Self.sum(combined, sin: ssig1, cos: csig1))
        return dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }
}

/// `x²`, one rounding.
@inline(__always)
private func square(_ x: Double) -> Double { x * x }

/// Scales (s, c) to unit length.
@inline(__always)
private func normalize(_ s: inout Double, _ c: inout Double) {
    let length = hypot(s, c)
    s /= length
    c /= length
}
