/// The mean of the samples read since the last one was taken: how the daemon reads the chips
/// faster than it estimates the heading.
///
/// Why: the chips make 75–100 samples a second, and at a high magnetic inclination without a
/// gyroscope one sample's heading is noisy (±1.6° at 75°). Reading every sample they make and
/// averaging pairs halves the noise variance of each estimate, which is what keeps the heading
/// within 2° at the end of a turn; the estimator, the navigator and the motor still run at the
/// sample rate.
public struct IMUSampleAverage: Sendable {
    private var magneticSum = Vector3.zero
    private var accelerationSum = Vector3.zero
    private var angularRateSum = Vector3.zero
    private var count = 0
    private var angularRateCount = 0

    /// An empty average.
    public init() {}

    /// Whether no sample was added since the last `take()`.
    public var isEmpty: Bool { count == 0 }

    /// Adds one sample.
    public mutating func add(_ sample: IMUSample) {
        magneticSum += sample.magneticMicrotesla
        accelerationSum += sample.accelerationG
        if let rate = sample.angularRateDegreesPerSecond {
            angularRateSum += rate
            angularRateCount += 1
        }
        count += 1
    }

    /// The mean of the samples added, and a fresh start; nil when there were none. The angular
    /// rate is averaged only when every sample had one (a board either has a gyroscope or not).
    public mutating func take() -> IMUSample? {
        guard count > 0 else { return nil }
        defer { self = IMUSampleAverage() }
        let n = Double(count)
        return IMUSample(
            magneticMicrotesla: magneticSum / n, accelerationG: accelerationSum / n,
            angularRateDegreesPerSecond: angularRateCount == count ? angularRateSum / n : nil)
    }
}
