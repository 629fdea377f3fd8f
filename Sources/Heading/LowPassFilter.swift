#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order low-pass filter of a vector for a time constant τ: two first-order stages of
/// τ/2 each, so that a step settles about as a first-order filter of time constant τ would,
/// while what is faster (walking, shaking, vibration) is damped 12 dB an octave instead of 6.
///
/// Why two exponential stages rather than a Butterworth biquad: the live daemon's samples come
/// at uneven intervals (a FIFO's burst is dated back sample by sample, and a sample can share
/// its time with the one before), and a biquad's internal state only means something for the
/// interval its coefficients were made for; changing them from sample to sample can make it
/// ring or diverge. Each stage here is exact for any interval (gain 1 − e^(−dt/T)) and its
/// state is its output, so any interval, even zero, is safe.
public struct LowPassFilter: Sendable {
    /// The time constant, seconds.
    public let timeConstantSeconds: Double
    /// The latest output; nil before the first sample.
    public private(set) var value: Vector3?
    private var first = Vector3.zero
    /// The interval the gain was computed for, and the gain: recomputed only when the interval
    /// moves by more than 1 %, so a steady stream costs no exponential.
    private var gainSeconds = 0.0
    private var gain = 1.0

    /// A filter with no samples yet.
    public init(timeConstantSeconds: Double) { self.timeConstantSeconds = timeConstantSeconds }

    /// Takes one sample `seconds` after the previous one; returns the output. The first sample
    /// starts the filter at rest on it; a sample with no time since the last changes nothing.
    public mutating func update(_ input: Vector3, seconds: Double) -> Vector3 {
        guard let previous = value else {
            start(at: input)
            return input
        }
        guard seconds > 0, seconds.isFinite else { return previous }
        if abs(seconds - gainSeconds) > 0.01 * gainSeconds {
            gainSeconds = seconds
            let stage = timeConstantSeconds / 2
            gain = stage > 0 ? 1 - exp(-seconds / stage) : 1
        }
        first += (input - first) * gain
        let output = previous + (first - previous) * gain
        value = output
        return output
    }

    /// Restarts the filter at rest on `input`.
    public mutating func start(at input: Vector3) {
        first = input
        value = input
    }
}
