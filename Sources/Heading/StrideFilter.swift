/// Takes a walker's sway out of the heading without delaying it.
///
/// While a person walks, the trunk sways with each stride and step (1 and 2 Hz), and without a
/// gyroscope the tilt-compensated heading sways with it by several degrees. A mean over one
/// whole stride cancels both frequencies exactly, but delays the heading by half a stride: at
/// 30 °/s the buzz would come 15° late. So two consecutive stride means are combined: with M₁
/// the mean over the last stride and M₂ over the one before, extrapolating along the line
/// through them to now (about 1.5·M₁ − 0.5·M₂) follows a steady turn with no delay at all, and
/// still cancels the sway, since each mean does.
///
/// Headings are kept unwrapped (continued across 0°/360°), so their means are plain sums. All
/// state is inline: no allocation.
public struct StrideFilter: Sendable {
    /// How many headings are kept: two strides of a second at up to 128 Hz.
    public static let capacity = 256
    private var recent = InlineArray<256, Double>(repeating: 0)
    private var count = 0
    private var newest = 0

    /// An empty filter.
    public init() {}

    /// Forgets every heading.
    public mutating func reset() { count = 0 }

    /// Takes one heading, degrees; returns the filtered heading in [0, 360).
    /// - Parameter strideSamples: how many samples one stride spans (at most `capacity / 2`).
    public mutating func update(_ degrees: Double, strideSamples: Int) -> Double {
        let stride = max(1, min(strideSamples, Self.capacity / 2))
        let unwrapped =
            count == 0 ? degrees : recent[newest] + HeadingEstimator.difference(recent[newest], degrees)
        newest = (newest + 1) % Self.capacity
        recent[newest] = unwrapped
        count = min(count + 1, Self.capacity)
        guard count >= 2 * stride else { return HeadingEstimator.wrap(unwrapped) }
        var last = 0.0
        var before = 0.0
        for back in 0..<stride {
            last += recent[(newest - back + Self.capacity) % Self.capacity]
            before += recent[(newest - back - stride + 2 * Self.capacity) % Self.capacity]
        }
        // M₁ lags by (n − 1)/2 samples and M₂ by n more: extrapolating along the line
        // through them to now adds (M₁ − M₂)·(n − 1)/(2n).
        let n = Double(stride)
        let (m1, m2) = (last / n, before / n)
        return HeadingEstimator.wrap(m1 + (m1 - m2) * (n - 1) / (2 * n))
    }
}
