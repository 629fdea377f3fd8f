/// Yearly rates of change of the field components and elements at one place and time
/// (the model's secular variation, evaluated there).
public struct MagneticFieldSecularVariation: Sendable, Equatable {
    /// dX/dt, nanotesla per year.
    public let northNanoteslaPerYear: Double
    /// dY/dt, nanotesla per year.
    public let eastNanoteslaPerYear: Double
    /// dZ/dt, nanotesla per year.
    public let downNanoteslaPerYear: Double
    /// dH/dt, nanotesla per year.
    public let horizontalIntensityNanoteslaPerYear: Double
    /// dF/dt, nanotesla per year.
    public let totalIntensityNanoteslaPerYear: Double
    /// dD/dt, degrees per year (also the rate of grid variation). Zero where H is exactly
    /// zero.
    public let declinationDegreesPerYear: Double
    /// dI/dt, degrees per year.
    public let inclinationDegreesPerYear: Double

    /// Creates a set of rates.
    ///
    /// - Parameters:
    ///   - northNanoteslaPerYear: dX/dt, nanotesla per year.
    ///   - eastNanoteslaPerYear: dY/dt, nanotesla per year.
    ///   - downNanoteslaPerYear: dZ/dt, nanotesla per year.
    ///   - horizontalIntensityNanoteslaPerYear: dH/dt, nanotesla per year.
    ///   - totalIntensityNanoteslaPerYear: dF/dt, nanotesla per year.
    ///   - declinationDegreesPerYear: dD/dt, degrees per year.
    ///   - inclinationDegreesPerYear: dI/dt, degrees per year.
    public init(
        northNanoteslaPerYear: Double, eastNanoteslaPerYear: Double,
        downNanoteslaPerYear: Double, horizontalIntensityNanoteslaPerYear: Double,
        totalIntensityNanoteslaPerYear: Double, declinationDegreesPerYear: Double,
        inclinationDegreesPerYear: Double
    ) {
        self.northNanoteslaPerYear = northNanoteslaPerYear
        self.eastNanoteslaPerYear = eastNanoteslaPerYear
        self.downNanoteslaPerYear = downNanoteslaPerYear
        self.horizontalIntensityNanoteslaPerYear = horizontalIntensityNanoteslaPerYear
        self.totalIntensityNanoteslaPerYear = totalIntensityNanoteslaPerYear
        self.declinationDegreesPerYear = declinationDegreesPerYear
        self.inclinationDegreesPerYear = inclinationDegreesPerYear
    }
}
