#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The direction of gravity in the body frame from the accelerometer alone, for boards
/// without a gyroscope. Two estimates, for the caller to choose between sample by sample:
///
/// - `down`: the specific force itself, held while it departs far from 1 g (a shake or a
///   jolt). No low-pass: without a gyroscope any lag in tilt is paid in heading, about
///   dθ·tan(inclination) (3.7 dθ at 75°); on the BROAD recordings a 2 s low-pass gave 79° RMS
///   where the raw accelerometer gives 17°.
/// - `strideDown`: the mean specific force over one stride (`strideSeconds`). A walker's trunk
///   accelerates by up to ±0.25 g at the stride's and the steps' frequencies (1 and 2 Hz),
///   which tilts the instantaneous vertical by up to 15°; over a whole stride that averages
///   out. A turn about the vertical does not move gravity in the body, so this mean does not
///   delay the heading in turns; a tilt it does delay, which the caller sees as a dip that
///   departs from the reference.
public struct GravityEstimator: Sendable {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// How far |specific force| may depart from 1 g before a sample counts less, g: the
        /// weight of a sample is exp(−(Δ/this)²). Default 0.6 g: shaking at several g is
        /// ignored, a walk's or a hand's accelerations are not (they come with real tilts).
        public var accelerationRejectionG = 0.6
        /// The mean's window, seconds: one stride. Default 1 s. At most
        /// `GravityEstimator.capacity` samples.
        public var strideSeconds = 1.0
        /// RMS departure of |specific force| from 1 g up to which the body counts as still
        /// (sensor noise), g. Default 0.01 g.
        public var stillDeviationG = 0.01
        /// RMS departure at which it counts as fully moving (a walk's trunk), g. Default 0.05 g.
        public var movingDeviationG = 0.05
        /// Time constant of that RMS departure, seconds. Default 0.5 s.
        public var deviationTimeConstant = 0.5

        /// The defaults.
        public init() {}
    }

    /// How many samples the stride's mean can hold: a second at up to 128 Hz.
    public static let capacity = 128

    public let settings: Settings
    /// The latest direction of gravity: a unit vector towards the ground in the body frame;
    /// nil until the first sample.
    public private(set) var down: Vector3?
    /// The mean of the specific force's direction over the last stride, pointing down; nil
    /// until the first sample.
    public var strideDown: Vector3? { count > 0 ? (sum / Double(count)).normalized : nil }

    /// How much the body moves as in walking, from 0 (still: |specific force| stays within
    /// `stillDeviationG` of 1 g) to 1 (moving: `movingDeviationG` or more).
    public private(set) var movingFraction = 0.0
    private var deviationSquared = 0.0

    /// The latest directions, a ring; `count` of them are valid, the newest at `newest`.
    private var recent = InlineArray<128, Vector3>(repeating: .zero)
    private var count = 0
    private var newest = 0
    private var sum = Vector3.zero

    /// An estimator with no estimate yet.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Takes one sample.
    /// - Parameters:
    ///   - accelerationG: specific force, body frame (at rest it points up, (0, 0, −1)).
    ///   - seconds: time since the previous sample.
    public mutating func update(accelerationG: Vector3, seconds: Double) {
        guard accelerationG.isFinite, accelerationG.length > 0.1 else { return }
        let measured = (-accelerationG).normalized
        guard let estimate = down else {
            down = measured
            remember(measured, seconds: seconds)
            return
        }
        // No time passed (a burst's samples dated back to a fix that came between them): the
        // estimate holds. Taking the raw measurement instead would, while walking, tilt gravity
        // by the trunk's acceleration, and the heading and the interference check with it.
        guard seconds > 0, seconds.isFinite else { return }
        let departure = accelerationG.length - 1
        let deviationGain = seconds / (settings.deviationTimeConstant + seconds)
        deviationSquared += (departure * departure - deviationSquared) * deviationGain
        let span = max(settings.movingDeviationG - settings.stillDeviationG, 1e-9)
        movingFraction = min(1, max(0, (deviationSquared.squareRoot() - settings.stillDeviationG) / span))
        let deviation = departure / settings.accelerationRejectionG
        let weight = exp(-deviation * deviation)
        down = (estimate + (measured - estimate) * weight).normalized
        remember(measured, seconds: seconds)
    }

    /// Keeps a direction in the stride's ring, the window sized from the sample interval.
    private mutating func remember(_ direction: Vector3, seconds: Double) {
        let samples = seconds > 0 ? (settings.strideSeconds / seconds).rounded() : 1
        let window = samples.isFinite ? Int(max(1, min(samples, Double(Self.capacity)))) : 1
        while count >= window {
            // The oldest leaves the sum.
            sum -= recent[(newest - count + 1 + Self.capacity) % Self.capacity]
            count -= 1
        }
        newest = (newest + 1) % Self.capacity
        recent[newest] = direction
        sum += direction
        count += 1
        if newest == 0 {
            // Once a ring, the sum afresh: adding and taking away would otherwise let rounding
            // build up over days.
            sum = .zero
            for back in 0..<count { sum += recent[(Self.capacity - back) % Self.capacity] }
        }
    }
}
