/// One-standard-deviation uncertainty of each field element at one place, from a model's
/// error model. It is a global statistic of the model against observations: it does not cover
/// local crustal anomalies, magnetic storms or interference near the sensor.
public struct MagneticFieldUncertainty: Sendable, Equatable {
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
    /// σ of the declination D, degrees; depends on the horizontal intensity and is infinite
    /// where H is zero.
    public internal(set) var declinationDegrees: Double

    /// Creates a set of uncertainties.
    ///
    /// - Parameters:
    ///   - northNanotesla: σ of X, nanotesla.
    ///   - eastNanotesla: σ of Y, nanotesla.
    ///   - downNanotesla: σ of Z, nanotesla.
    ///   - horizontalIntensityNanotesla: σ of H, nanotesla.
    ///   - totalIntensityNanotesla: σ of F, nanotesla.
    ///   - inclinationDegrees: σ of I, degrees.
    ///   - declinationDegrees: σ of D, degrees.
    public init(
        northNanotesla: Double, eastNanotesla: Double, downNanotesla: Double,
        horizontalIntensityNanotesla: Double, totalIntensityNanotesla: Double,
        inclinationDegrees: Double, declinationDegrees: Double
    ) {
        self.northNanotesla = northNanotesla
        self.eastNanotesla = eastNanotesla
        self.downNanotesla = downNanotesla
        self.horizontalIntensityNanotesla = horizontalIntensityNanotesla
        self.totalIntensityNanotesla = totalIntensityNanotesla
        self.inclinationDegrees = inclinationDegrees
        self.declinationDegrees = declinationDegrees
    }
}
