/// A magnetic model's published error model (one standard deviation): constant uncertainties
/// for X, Y, Z, H, F and I, and a declination uncertainty that grows as the horizontal
/// intensity H falls, σ_D = √(c² + (k / H)²) degrees.
public struct MagneticErrorModel: Sendable, Equatable {
    /// The WMM2025 error model (WMM2025 technical report, as coded in NOAA/CIRES's
    /// `wmm-calculator` and in `pygeomag`): X 137 nT, Y 89 nT, Z 141 nT, H 133 nT, F 138 nT,
    /// I 0.20°, and D with c = 0.26° and k = 5417 nT·°.
    public static let wmm2025 = MagneticErrorModel(
        northNanotesla: 137, eastNanotesla: 89, downNanotesla: 141,
        horizontalIntensityNanotesla: 133, totalIntensityNanotesla: 138,
        inclinationDegrees: 0.20, declinationFloorDegrees: 0.26,
        declinationScaleNanoteslaDegrees: 5417)

    /// σ of the north component X, nanotesla.
    public let northNanotesla: Double
    /// σ of the east component Y, nanotesla.
    public let eastNanotesla: Double
    /// σ of the down component Z, nanotesla.
    public let downNanotesla: Double
    /// σ of the horizontal intensity H, nanotesla.
    public let horizontalIntensityNanotesla: Double
    /// σ of the total intensity F, nanotesla.
    public let totalIntensityNanotesla: Double
    /// σ of the inclination I, degrees.
    public let inclinationDegrees: Double
    /// c: the part of σ_D that does not depend on H, degrees.
    public let declinationFloorDegrees: Double
    /// k: the part of σ_D inversely proportional to H, nanotesla × degrees (k / H is in
    /// degrees).
    public let declinationScaleNanoteslaDegrees: Double

    /// Creates an error model.
    ///
    /// - Parameters:
    ///   - northNanotesla: σ of X, nanotesla.
    ///   - eastNanotesla: σ of Y, nanotesla.
    ///   - downNanotesla: σ of Z, nanotesla.
    ///   - horizontalIntensityNanotesla: σ of H, nanotesla.
    ///   - totalIntensityNanotesla: σ of F, nanotesla.
    ///   - inclinationDegrees: σ of I, degrees.
    ///   - declinationFloorDegrees: c of σ_D, degrees.
    ///   - declinationScaleNanoteslaDegrees: k of σ_D, nanotesla × degrees.
    public init(
        northNanotesla: Double, eastNanotesla: Double, downNanotesla: Double,
        horizontalIntensityNanotesla: Double, totalIntensityNanotesla: Double,
        inclinationDegrees: Double, declinationFloorDegrees: Double,
        declinationScaleNanoteslaDegrees: Double
    ) {
        self.northNanotesla = northNanotesla
        self.eastNanotesla = eastNanotesla
        self.downNanotesla = downNanotesla
        self.horizontalIntensityNanotesla = horizontalIntensityNanotesla
        self.totalIntensityNanotesla = totalIntensityNanotesla
        self.inclinationDegrees = inclinationDegrees
        self.declinationFloorDegrees = declinationFloorDegrees
        self.declinationScaleNanoteslaDegrees = declinationScaleNanoteslaDegrees
    }

    /// One-standard-deviation declination uncertainty, degrees, σ_D = √(c² + (k / H)²).
    ///
    /// - Parameter horizontalIntensityNanotesla: H at the place, nanotesla. Zero gives
    ///   +infinity (declination is undefined there); NaN gives NaN.
    public func declinationUncertaintyDegrees(horizontalIntensityNanotesla h: Double) -> Double {
        let horizontalTerm = declinationScaleNanoteslaDegrees / Swift.abs(h)
        return (declinationFloorDegrees * declinationFloorDegrees
            + horizontalTerm * horizontalTerm).squareRoot()
    }

    /// The uncertainty of every element at a place with the given horizontal intensity.
    ///
    /// - Parameter horizontalIntensityNanotesla: H at the place, nanotesla.
    public func uncertainty(horizontalIntensityNanotesla h: Double) -> MagneticFieldUncertainty {
        MagneticFieldUncertainty(
            northNanotesla: northNanotesla, eastNanotesla: eastNanotesla,
            downNanotesla: downNanotesla,
            horizontalIntensityNanotesla: horizontalIntensityNanotesla,
            totalIntensityNanotesla: totalIntensityNanotesla,
            inclinationDegrees: inclinationDegrees,
            declinationDegrees: declinationUncertaintyDegrees(horizontalIntensityNanotesla: h))
    }
}
