/// The gyroscope's bias, estimated by a Kalman filter: directly while the device rests, and in
/// motion from the corrections the accelerometer makes to the integrated attitude (a bias
/// turns the integrated attitude away from gravity at a rate the corrections reveal, in the
/// two horizontal directions). The vertical direction cannot be seen in motion; rest sees all
/// three. With the bias known, the heading can coast on the gyroscope alone while the
/// magnetometer is disturbed. (After VQF, Laidig and Seel 2023, §3.4.)
///
/// Units: the bias in °/s, its covariance in (°/s)².
public struct GyroscopeBias: Sendable {
    /// Uncertainties and limits, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// The uncertainty before any estimate, °/s (1σ). Default 0.5 °/s.
        public var initialSigmaDegreesPerSecond = 0.5
        /// How fast a bias is believed to change: its variance grows by
        /// `motionSigmaDegreesPerSecond`² in this many seconds. Default 100 s.
        public var forgettingSeconds = 100.0
        /// The uncertainty the estimate settles to in motion, °/s (1σ). Default 0.1 °/s.
        public var motionSigmaDegreesPerSecond = 0.1
        /// The uncertainty it settles to at rest, °/s (1σ). Default 0.03 °/s.
        public var restSigmaDegreesPerSecond = 0.03
        /// The largest bias believed, °/s on each axis. Default 2 °/s.
        public var largestDegreesPerSecond = 2.0

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// The estimate, °/s, body frame.
    public private(set) var degreesPerSecond = Vector3.zero
    /// Its covariance, (°/s)².
    public private(set) var covariance: Matrix3

    /// An estimate of zero, as uncertain as the settings say.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        let sigma = settings.initialSigmaDegreesPerSecond
        covariance = .diagonal(Vector3(sigma * sigma, sigma * sigma, sigma * sigma))
    }

    /// The uncertainty of the estimate, °/s: the root of the covariance's largest eigenvalue.
    public var sigmaDegreesPerSecond: Double {
        let values = covariance.symmetricEigen.values
        return max(values.x, values.y, values.z, 0).squareRoot()
    }

    /// Lets `seconds` pass: the bias may have wandered.
    public mutating func predict(seconds: Double) {
        let sigma = settings.motionSigmaDegreesPerSecond
        let growth = sigma * sigma * seconds / settings.forgettingSeconds
        covariance = covariance + .diagonal(Vector3(growth, growth, growth))
    }

    /// The variance of one measurement, (°/s)², that lets the estimate settle to `sigma`.
    ///
    /// Why: the measurements come every sample and are low-passed, so they are far from
    /// independent, and no per-sample noise can be read off a datasheet. What can be said is how
    /// well the estimate should settle. A scalar filter with process noise q per step and
    /// measurement noise r settles at P ≈ √(q·r) when P ≪ r, so r = σ⁴ / q for P = σ².
    private func measurementVariance(settlingTo sigma: Double, seconds: Double) -> Double {
        let motion = settings.motionSigmaDegreesPerSecond
        let q = motion * motion * seconds / settings.forgettingSeconds
        return sigma * sigma * sigma * sigma / max(q, 1e-300)
    }

    /// At rest, the mean angular rate is the bias.
    public mutating func observeAtRest(meanRateDegreesPerSecond measured: Vector3, seconds: Double) {
        let r = measurementVariance(settlingTo: settings.restSigmaDegreesPerSecond, seconds: seconds)
        guard let inverse = (covariance + .diagonal(Vector3(r, r, r))).inverse else { return }
        let gain = covariance * inverse
        degreesPerSecond = clipped(degreesPerSecond + gain * (measured - degreesPerSecond))
        covariance = symmetric(covariance - gain * covariance)
    }

    /// In motion: `measured` is the bias as the accelerometer's corrections see it in the two
    /// horizontal directions `north` and `east` of the reference frame (the first two rows of
    /// the body-to-reference rotation), °/s.
    public mutating func observeInMotion(
        north: Vector3, east: Vector3, measured: (north: Double, east: Double), seconds: Double
    ) {
        let r = measurementVariance(settlingTo: settings.motionSigmaDegreesPerSecond, seconds: seconds)
        let pn = covariance * north
        let pe = covariance * east
        // S = H P Hᵀ + R, 2 × 2, inverted by hand.
        let s00 = north.dot(pn) + r
        let s01 = north.dot(pe)
        let s11 = east.dot(pe) + r
        let determinant = s00 * s11 - s01 * s01
        guard determinant > 0, determinant.isFinite else { return }
        let (i00, i01, i11) = (s11 / determinant, -s01 / determinant, s00 / determinant)
        // K = P Hᵀ S⁻¹: two columns.
        let k0 = pn * i00 + pe * i01
        let k1 = pn * i01 + pe * i11
        let innovation = (measured.north - north.dot(degreesPerSecond), measured.east - east.dot(degreesPerSecond))
        guard innovation.0.isFinite, innovation.1.isFinite else { return }
        degreesPerSecond = clipped(degreesPerSecond + k0 * innovation.0 + k1 * innovation.1)
        // P ← P − K H P, with H P = (pnᵀ; peᵀ) by symmetry.
        let update = Matrix3(
            pn * k0.x + pe * k1.x, pn * k0.y + pe * k1.y, pn * k0.z + pe * k1.z)
        covariance = symmetric(covariance - update)
    }

    private func clipped(_ v: Vector3) -> Vector3 {
        let limit = settings.largestDegreesPerSecond
        return Vector3(min(limit, max(-limit, v.x)), min(limit, max(-limit, v.y)), min(limit, max(-limit, v.z)))
    }

    /// The symmetric part: rounding would otherwise let the covariance drift from symmetry.
    private func symmetric(_ m: Matrix3) -> Matrix3 { (m + m.transposed) * 0.5 }
}
