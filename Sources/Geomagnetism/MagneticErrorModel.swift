/// A magnetic model's published error model (one standard deviation): constant uncertainties
/// for X, Y, Z, H, F and I, and a declination uncertainty that grows as the horizontal
/// intensity H falls, σ_D = √(c² + (k / H)²) degrees.
public struct MagneticErrorModel: Sendable, Equatable {
    /// The WMM2025 error model (WMM2025 technical report, as coded in NOAA/CIRES's
    /// `wmm-calculator` and in `pygeomag`): X 137 nT, Y 89 nT, Z 141 nT, H 133 nT, F 138 nT,
    /// I 0.20°, and D with c = 0.26° and k = 5417 nT·°.
    public static let wmm2025 = MagneticErrorModel(
        strongField: MagneticFieldUncertainty(
            northNanotesla: 137, eastNanotesla: 89, downNanotesla: 141,
            horizontalIntensityNanotesla: 133, totalIntensityNanotesla: 138,
            inclinationDegrees: 0.20, declinationDegrees: 0.26),
        declinationScaleNanoteslaDegrees: 5417)

    /// The uncertainties where the horizontal field is strong: the constant σ of X, Y, Z, H, F
    /// and I, and the floor c of σ_D.
    public let strongField: MagneticFieldUncertainty
    /// k: the part of σ_D inversely proportional to H, nanotesla × degrees (k / H is in
    /// degrees).
    public let declinationScaleNanoteslaDegrees: Double

    /// Creates an error model.
    ///
    /// - Parameters:
    ///   - strongField: σ of every element, with the floor c of σ_D as its declination.
    ///   - declinationScaleNanoteslaDegrees: k of σ_D, nanotesla × degrees.
    public init(strongField: MagneticFieldUncertainty, declinationScaleNanoteslaDegrees: Double) {
        self.strongField = strongField
        self.declinationScaleNanoteslaDegrees = declinationScaleNanoteslaDegrees
    }

    /// One-standard-deviation declination uncertainty, degrees, σ_D = √(c² + (k / H)²).
    ///
    /// - Parameter horizontalIntensityNanotesla: H at the place, nanotesla. Zero gives
    ///   +infinity (declination is undefined there); NaN gives NaN.
    public func declinationUncertaintyDegrees(horizontalIntensityNanotesla h: Double) -> Double {
        let floor = strongField.declinationDegrees
        let horizontalTerm = declinationScaleNanoteslaDegrees / Swift.abs(h)
        return (floor * floor + horizontalTerm * horizontalTerm).squareRoot()
    }

    /// The uncertainty of every element at a place with the given horizontal intensity.
    ///
    /// - Parameter horizontalIntensityNanotesla: H at the place, nanotesla.
    public func uncertainty(horizontalIntensityNanotesla h: Double) -> MagneticFieldUncertainty {
        var uncertainty = strongField
        uncertainty.declinationDegrees = declinationUncertaintyDegrees(horizontalIntensityNanotesla: h)
        return uncertainty
    }
}
