extension MagneticModel {
    /// The World Magnetic Model 2025 (NOAA NCEI and BGS; epoch 2025.0, valid 2025.0–2030.0),
    /// with its coefficients compiled in from `WMM2025.COF` and the WMM2025 error model.
    ///
    /// Public domain (a US Government work); see `WMM2025Coefficients.swift` for provenance.
    public static let wmm2025 = MagneticModel(
        name: WMM2025Coefficients.modelName,
        releaseDate: WMM2025Coefficients.releaseDate,
        epochYear: WMM2025Coefficients.epochYear,
        validFromYear: WMM2025Coefficients.validFromYear,
        validUntilYear: WMM2025Coefficients.validUntilYear,
        coefficients: WMM2025Coefficients.table,
        errorModel: .wmm2025)
}
