/// One line of a WMM coefficient file: the Schmidt semi-normalised Gauss coefficients of one
/// degree and order at the model epoch, with their linear secular variation.
///
/// The main field at decimal year t is g(t) = g + (t − epoch) · ġ, and likewise for h.
public struct GaussCoefficient: Sendable, Equatable {
    /// Degree n, 1 through 12 for WMM.
    public let degree: Int
    /// Order m, 0 through `degree`.
    public let order: Int
    /// Main-field coefficient g at the epoch, nanotesla.
    public let gNanotesla: Double
    /// Main-field coefficient h at the epoch, nanotesla (zero when `order` is 0).
    public let hNanotesla: Double
    /// Secular variation ġ, nanotesla per year.
    public let gRateNanoteslaPerYear: Double
    /// Secular variation ḣ, nanotesla per year (zero when `order` is 0).
    public let hRateNanoteslaPerYear: Double

    /// Creates a coefficient line.
    ///
    /// - Parameters:
    ///   - degree: Degree n.
    ///   - order: Order m, 0 ≤ m ≤ n.
    ///   - gNanotesla: g at the epoch, nanotesla.
    ///   - hNanotesla: h at the epoch, nanotesla.
    ///   - gRateNanoteslaPerYear: ġ, nanotesla per year.
    ///   - hRateNanoteslaPerYear: ḣ, nanotesla per year.
    public init(
        degree: Int, order: Int, gNanotesla: Double, hNanotesla: Double,
        gRateNanoteslaPerYear: Double, hRateNanoteslaPerYear: Double
    ) {
        self.degree = degree
        self.order = order
        self.gNanotesla = gNanotesla
        self.hNanotesla = hNanotesla
        self.gRateNanoteslaPerYear = gRateNanoteslaPerYear
        self.hRateNanoteslaPerYear = hRateNanoteslaPerYear
    }
}
