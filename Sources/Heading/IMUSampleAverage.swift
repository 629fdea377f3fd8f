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

    /// The fastest the chips are read, Hz: they make at most about 100 samples a second
    /// (sensors.md), so reading faster only finds nothing new.
    public static let fastestReadHertz = 100.0

    /// How many times the chips are read per sample while the heading matters. Without a
    /// gyroscope, as many as fit at `fastestReadHertz` (twice at the default 50 Hz, once at
    /// 100 Hz and above), so that every sample the chips make is used: the heading then rests on
    /// the magnetometer alone, and at high inclinations its noise decides the error at the end
    /// of a turn. With one, once: the gyroscope carries the heading between samples and the
    /// magnetometer's noise is averaged over a second anyway, so more reads would only cost
    /// wake-ups.
    public static func readsPerSample(hasGyroscope: Bool, sampleRateHertz: Double) -> Int {
        hasGyroscope ? 1 : max(1, Int(fastestReadHertz / sampleRateHertz))
    }

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
