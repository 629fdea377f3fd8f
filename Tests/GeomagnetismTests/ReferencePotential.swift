import Foundation
import Geomagnetism

/// A deliberately naive, independently written WMM evaluation used as a differential oracle:
/// the scalar potential V from closed-form Legendre polynomials (Rodrigues' formula, no
/// recursion), the field as −∇V by finite differences, and its own geodetic conversion with
/// `asin`/`atan2`. It shares no code with the Geomagnetism target. Slow, and not meant for
/// points within a fraction of a degree of a pole (it divides by cos φ′).
struct ReferencePotential {
    static let referenceRadius = 6371.2
    static let semiMajorAxis = 6378.137
    static let flattening = 1 / 298.257223563

    /// One term: its coefficients and its Schmidt function as
    /// norm · (1 − x²)^(m/2) · Σ_j polynomial[j] · x^j.
    struct Term {
        var coefficient: GaussCoefficient
        var norm: Double
        var polynomial: [Double]
    }

    let terms: [Term]
    let epochYear: Double

    init(coefficients: [GaussCoefficient], epochYear: Double) {
        func factorial(_ k: Int) -> Double { k <= 1 ? 1 : (2...k).reduce(1.0) { $0 * Double($1) } }
        func binomial(_ a: Int, _ b: Int) -> Double {
            factorial(a) / (factorial(b) * factorial(a - b))
        }
        terms = coefficients.map { c in
            let n = c.degree, m = c.order
            // d^m/dx^m of P_n(x) = 2^−n Σ_k (−1)^k C(n,k) C(2n−2k, n) x^(n−2k).
            var polynomial = [Double](repeating: 0, count: n + 1)
            for k in 0...(n / 2) where n - 2 * k >= m {
                let power = n - 2 * k
                let sign: Double = k % 2 == 0 ? 1 : -1
                polynomial[power - m] += sign * binomial(n, k) * binomial(2 * n - 2 * k, n)
                    * factorial(power) / factorial(power - m) / pow(2, Double(n))
            }
            let norm = m == 0 ? 1 : (2 * factorial(n - m) / factorial(n + m)).squareRoot()
            return Term(coefficient: c, norm: norm, polynomial: polynomial)
        }
        self.epochYear = epochYear
    }

    /// V(r, φ′, λ) in nT·km at time t.
    func potential(radius: Double, latitude: Double, longitude: Double, year: Double) -> Double {
        let a = Self.referenceRadius
        let x = sin(latitude)
        var sum = 0.0
        for term in terms {
            let c = term.coefficient
            let g = c.gNanotesla + (year - epochYear) * c.gRateNanoteslaPerYear
            let h = c.hNanotesla + (year - epochYear) * c.hRateNanoteslaPerYear
            let m = Double(c.order)
            var polynomial = 0.0
            for (power, value) in term.polynomial.enumerated() where value != 0 {
                polynomial += value * pow(x, Double(power))
            }
            let legendre = term.norm * pow(1 - x * x, m / 2) * polynomial
            sum += pow(a / radius, Double(c.degree + 1))
                * (g * cos(m * longitude) + h * sin(m * longitude)) * legendre
        }
        return a * sum
    }

    /// (X, Y, Z) in nT in the geodetic north-east-down frame.
    func field(
        latitudeDegrees: Double, longitudeDegrees: Double, heightKilometers: Double, year: Double
    ) -> (north: Double, east: Double, down: Double) {
        let phi = latitudeDegrees * .pi / 180
        let lambda = longitudeDegrees * .pi / 180
        let e2 = Self.flattening * (2 - Self.flattening)
        let n = Self.semiMajorAxis / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let p = (n + heightKilometers) * cos(phi)
        let z = (n * (1 - e2) + heightKilometers) * sin(phi)
        let r = (p * p + z * z).squareRoot()
        let phiPrime = asin(z / r)

        // Fourth-order central differences.
        func derivative(_ f: (Double) -> Double, at x: Double, step: Double) -> Double {
            (-f(x + 2 * step) + 8 * f(x + step) - 8 * f(x - step) + f(x - 2 * step)) / (12 * step)
        }
        let angleStep = 1e-4
        let radiusStep = 1e-1
        let dVdPhi = derivative(
            { potential(radius: r, latitude: $0, longitude: lambda, year: year) }, at: phiPrime,
            step: angleStep)
        let dVdLambda = derivative(
            { potential(radius: r, latitude: phiPrime, longitude: $0, year: year) }, at: lambda,
            step: angleStep)
        let dVdR = derivative(
            { potential(radius: $0, latitude: phiPrime, longitude: lambda, year: year) }, at: r,
            step: radiusStep)
        let xPrime = -dVdPhi / r
        let yPrime = -dVdLambda / (r * cos(phiPrime))
        let zPrime = dVdR
        let psi = phiPrime - phi
        return (
            xPrime * cos(psi) - zPrime * sin(psi), yPrime, xPrime * sin(psi) + zPrime * cos(psi))
    }
}
