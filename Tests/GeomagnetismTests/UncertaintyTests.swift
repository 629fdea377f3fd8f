import Geomagnetism
import Testing

/// The WMM2025 error model: constant σ for X, Y, Z, H, F, I and
/// σ_D = √(0.26² + (5417 / H)²) degrees.
@Suite("WMM2025 uncertainty", .timeLimit(.minutes(5)))
struct UncertaintyTests {
    @Test("constant uncertainties")
    func constants() {
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: 10, longitudeDegrees: 20, heightAboveEllipsoidKilometers: 0,
            decimalYear: 2026)
        let sigma = field.uncertainty
        #expect(sigma.northNanotesla == 137)
        #expect(sigma.eastNanotesla == 89)
        #expect(sigma.downNanotesla == 141)
        #expect(sigma.horizontalIntensityNanotesla == 133)
        #expect(sigma.totalIntensityNanotesla == 138)
        #expect(sigma.inclinationDegrees == 0.20)
        #expect(MagneticModel.wmm2025.errorModel == .wmm2025)
    }

    @Test(
        "declination uncertainty formula",
        arguments: [(6000.0, 0.9395), (2000.0, 2.7209), (20_000.0, 0.3754), (5417.0, 1.0333)])
    func formula(horizontalIntensityNanotesla: Double, degrees: Double) {
        let sigma = MagneticErrorModel.wmm2025.declinationUncertaintyDegrees(
            horizontalIntensityNanotesla: horizontalIntensityNanotesla)
        #expect(Swift.abs(sigma - degrees) < 1e-4)
    }

    @Test("declination uncertainty is infinite at H = 0 and tends to 0.26° for a strong field")
    func limits() {
        let model = MagneticErrorModel.wmm2025
        #expect(model.declinationUncertaintyDegrees(horizontalIntensityNanotesla: 0) == .infinity)
        let strong = model.declinationUncertaintyDegrees(horizontalIntensityNanotesla: 1e12)
        #expect(Swift.abs(strong - 0.26) < 1e-9)
    }

    /// Spot values at 2026.5, sea level, from the reference note (two decimals); the note does
    /// not give its exact coordinates, so city-centre coordinates and ±0.01° are used.
    @Test(
        "declination uncertainty at named places",
        arguments: [
            ("Paris", 48.8566, 2.3522, 0.37), ("London", 51.5072, -0.1276, 0.38),
            ("Tokyo", 35.6762, 139.6503, 0.32), ("Sydney", -33.8688, 151.2093, 0.34),
            ("Boulder", 40.0150, -105.2705, 0.37), ("Seattle", 47.6062, -122.3321, 0.39),
            ("Helsinki", 60.1699, 24.9384, 0.45), ("Svalbard", 78.2232, 15.6267, 0.79),
        ])
    func places(name: String, latitude: Double, longitude: Double, degrees: Double) {
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: latitude, longitudeDegrees: longitude,
            heightAboveEllipsoidKilometers: 0, decimalYear: 2026.5)
        #expect(
            Swift.abs(field.declinationUncertaintyDegrees - degrees) <= 0.01,
            "\(name): σ_D \(field.declinationUncertaintyDegrees)")
    }
}
