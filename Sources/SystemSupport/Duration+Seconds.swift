extension Duration {
    /// The duration in seconds, as a `Double` (the unit the pure targets take time steps in).
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// The duration as a `poll(2)` timeout: whole milliseconds rounded up (waking a little late
    /// keeps an absolute schedule; waking early would spin), 0 when not positive, at most an hour.
    public var pollMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        return Int32(min(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, 3_600_000))
    }
}
