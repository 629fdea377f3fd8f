extension Duration {
    /// The duration in seconds, as a `Double` (the unit the pure targets take time steps in).
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
