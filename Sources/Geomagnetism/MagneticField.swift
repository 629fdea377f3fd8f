/// The geomagnetic field at one place and time, as a model predicts it: the vector in the
/// local north-east-down frame, the elements derived from it, their yearly rates of change,
/// their uncertainty and the compass-reliability zone.
///
/// Angles are in degrees. Declination is positive east of true north, so
/// true heading = magnetic heading + `declinationDegrees`. Inclination is positive when the
/// field points down (northern hemisphere).
public struct MagneticField: Sendable, Equatable {
    /// Latitude from which grid variation is defined, degrees either side of the equator.
    /// Grid variation is referred to a polar stereographic grid, used only this far poleward.
    public static let gridVariationMinimumLatitudeDegrees = 55.0

    /// North component X, nanotesla.
    public let northNanotesla: Double
    /// East component Y, nanotesla.
    public let eastNanotesla: Double
    /// Down component Z, nanotesla (positive downwards).
    public let downNanotesla: Double
    /// Horizontal intensity H = √(X² + Y²), nanotesla.
    public let horizontalIntensityNanotesla: Double
    /// Total intensity F = √(H² + Z²), nanotesla.
    public let totalIntensityNanotesla: Double
    /// Declination D = atan2(Y, X), degrees in (−180, 180], positive east. Zero when H is
    /// exactly zero, where it is undefined.
    public let declinationDegrees: Double
    /// Inclination (dip) I = atan2(Z, H), degrees in [−90, 90], positive down.
    public let inclinationDegrees: Double
    /// Grid variation, degrees in (−180, 180]: the angle from grid north of a polar
    /// stereographic grid to magnetic north, GV = D − λ at or north of 55°N and GV = D + λ at
    /// or south of 55°S. `nil` between 55°S and 55°N, where it is not defined.
    public let gridVariationDegrees: Double?
    /// Yearly rates of change of the components and elements above. The rate of grid
    /// variation equals that of declination.
    public let secularVariation: MagneticFieldSecularVariation
    /// One-standard-deviation uncertainty of each element from the model's error model.
    public let uncertainty: MagneticFieldUncertainty
    /// Compass reliability from the horizontal intensity (MIL-PRF-89500B blackout and caution
    /// zones).
    public let zone: CompassZone
    /// Whether the date lies in the model's validity interval. Outside it the values are
    /// still computed, by extrapolating the secular variation, but are not supported by the
    /// model's producers.
    public let isWithinValidity: Bool

    /// One-standard-deviation uncertainty of the declination, degrees:
    /// σ_D = √(c² + (k / H)²) with the model's constants (WMM2025: c = 0.26°, k = 5417 nT·°).
    /// Grows without bound as H falls to zero near the magnetic poles.
    public var declinationUncertaintyDegrees: Double { uncertainty.declinationDegrees }

    /// Derives the elements, rates and flags from the geodetic components.
    ///
    /// - Parameters:
    ///   - northNanotesla: X, nanotesla.
    ///   - eastNanotesla: Y, nanotesla.
    ///   - downNanotesla: Z, nanotesla.
    ///   - northRateNanoteslaPerYear: dX/dt, nanotesla per year.
    ///   - eastRateNanoteslaPerYear: dY/dt, nanotesla per year.
    ///   - downRateNanoteslaPerYear: dZ/dt, nanotesla per year.
    ///   - latitudeDegrees: Geodetic latitude, degrees, for grid variation.
    ///   - longitudeDegrees: Longitude, degrees, for grid variation.
    ///   - isWithinValidity: Whether the date is in the model's validity interval.
    ///   - errorModel: The model's error model.
    init(
        northNanotesla x: Double, eastNanotesla y: Double, downNanotesla z: Double,
        northRateNanoteslaPerYear xRate: Double, eastRateNanoteslaPerYear yRate: Double,
        downRateNanoteslaPerYear zRate: Double,
        latitudeDegrees: Double, longitudeDegrees: Double,
        isWithinValidity: Bool, errorModel: MagneticErrorModel
    ) {
        let h = (x * x + y * y).squareRoot()
        let f = (h * h + z * z).squareRoot()
        // atan2 gives −180° for a field pointing due south with Y = −0.0; report +180° so
        // declination is in (−180°, 180°] like every other angle difference in the project.
        let southward = -DegreeTrigonometry.degreesPerHalfTurn
        let rawDeclination = DegreeTrigonometry.atan2Degrees(y: y, x: x)
        let declination =
            rawDeclination == southward ? DegreeTrigonometry.degreesPerHalfTurn : rawDeclination

        northNanotesla = x
        eastNanotesla = y
        downNanotesla = z
        horizontalIntensityNanotesla = h
        totalIntensityNanotesla = f
        declinationDegrees = declination
        inclinationDegrees = DegreeTrigonometry.atan2Degrees(y: z, x: h)

        if latitudeDegrees >= Self.gridVariationMinimumLatitudeDegrees {
            gridVariationDegrees = DegreeTrigonometry.wrappedDegrees(declination - longitudeDegrees)
        } else if latitudeDegrees <= -Self.gridVariationMinimumLatitudeDegrees {
            gridVariationDegrees = DegreeTrigonometry.wrappedDegrees(declination + longitudeDegrees)
        } else {
            gridVariationDegrees = nil
        }

        // Rates by differentiating H, F, D and I. Where H is exactly zero, H grows at the
        // speed of the horizontal vector and D has no rate; F is zero only for a zero field.
        let horizontalRate =
            h > 0 ? (x * xRate + y * yRate) / h : (xRate * xRate + yRate * yRate).squareRoot()
        let totalRate = f > 0 ? (h * horizontalRate + z * zRate) / f : 0.0
        let declinationRate = h > 0 ? (x * yRate - y * xRate) / (h * h) : 0.0
        let inclinationRate = f > 0 ? (h * zRate - z * horizontalRate) / (f * f) : 0.0
        secularVariation = MagneticFieldSecularVariation(
            northNanoteslaPerYear: xRate, eastNanoteslaPerYear: yRate,
            downNanoteslaPerYear: zRate,
            horizontalIntensityNanoteslaPerYear: horizontalRate,
            totalIntensityNanoteslaPerYear: totalRate,
            declinationDegreesPerYear: declinationRate * DegreeTrigonometry.degreesPerRadian,
            inclinationDegreesPerYear: inclinationRate * DegreeTrigonometry.degreesPerRadian)

        uncertainty = errorModel.uncertainty(horizontalIntensityNanotesla: h)
        zone = CompassZone(horizontalIntensityNanotesla: h)
        self.isWithinValidity = isWithinValidity
    }
}
