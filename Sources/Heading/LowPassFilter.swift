#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order Butterworth low-pass filter of a vector, for a time constant τ: cutoff
/// `√2 / (2πτ)`, so that its step response settles about as a first-order filter of time
/// constant τ would, while it damps what is faster (walking, shaking, vibration) 12 dB an
/// octave instead of 6. Bilinear transform with the cutoff prewarped.
///
/// The coefficients depend on the sample interval, which varies a little in the live daemon;
/// they are recomputed only when it moves by more than 1 %, so a steady stream of samples
/// costs no trigonometry.
public struct LowPassFilter: Sendable {
    /// The time constant, seconds.
    public let timeConstantSeconds: Double
    /// The latest output; nil before the first sample.
    public private(set) var value: Vector3?
    private var state1 = Vector3.zero
    private var state2 = Vector3.zero
    private var coefficientSeconds = 0.0
    /// Whether the state must still be set to rest on `value`, once the coefficients are known.
    private var settling = false
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0

    /// A filter with no samples yet.
    public init(timeConstantSeconds: Double) { self.timeConstantSeconds = timeConstantSeconds }

    /// Takes one sample `seconds` after the previous one; returns the output. The first sample
    /// starts the filter at rest on it.
    public mutating func update(_ input: Vector3, seconds: Double) -> Vector3 {
        guard let previous = value, seconds > 0 else {
            if value == nil { start(at: input) }
            return value!
        }
        if abs(seconds - coefficientSeconds) > 0.01 * coefficientSeconds { design(seconds: seconds) }
        if settling {
            // The state of the transposed direct form II for a constant input (unit gain at DC).
            state2 = previous * (b2 - a2)
            state1 = previous * (b1 - a1) + state2
            settling = false
        }
        let output = input * b0 + state1
        state1 = input * b1 - output * a1 + state2
        state2 = input * b2 - output * a2
        value = output
        return output
    }

    /// Restarts the filter at rest on `input`.
    public mutating func start(at input: Vector3) {
        value = input
        settling = true
    }

    private mutating func design(seconds: Double) {
        coefficientSeconds = seconds
        guard timeConstantSeconds > 0 else {
            (b0, b1, b2, a1, a2) = (1, 0, 0, 0, 0)
            return
        }
        let cutoffHertz = 2.0.squareRoot() / (2 * .pi * timeConstantSeconds)
        // Past Nyquist the filter cannot be designed; it then passes the input through.
        let k = tan(.pi * min(cutoffHertz * seconds, 0.49))
        let r = 2.0.squareRoot()
        let norm = 1 / (1 + r * k + k * k)
        b0 = k * k * norm
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (k * k - 1) * norm
        a2 = (1 - r * k + k * k) * norm
    }
}
