#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of each magnetometer sample's disagreement with the gyroscope's heading to take:
/// the gain of the heading's correction, sample by sample.
///
/// The heading's uncertainty is tracked as a variance, degrees² (a scalar Kalman filter):
/// - Each trusted sample averages in: before the first the variance is infinite, so the first
///   sets the heading and the next ones are averaged (gains ½, ⅓, …; after a second of samples
///   the heading is as good as a second of clean field), until the gain falls to the steady one
///   of `timeConstantSeconds`.
/// - While the field is disturbed the heading coasts on the gyroscope, whose bias is known to
///   ±σ °/s (`GyroscopeBias`): in T seconds the heading may have turned by σ·T, and that
///   variance is added when the field is trusted again. After a long disturbance (a parked
///   car walked past, a magnet taken away) the heading then returns to the clean field within
///   a second or two instead of over the steady time constant; after a short one, whose drift
///   is small, it barely moves, so a field that only seems clean for a moment cannot pull it.
///
/// The samples' errors are not independent (a calibration's residue, a tilt's error and a
/// slowly bending field stay alike for a second or more), so a second of samples counts as one
/// measurement of `cleanFieldErrorDegrees`, not as 50.
///
/// Pure; no allocation.
public struct HeadingCorrection: Sendable {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// The steady correction's time constant, seconds. Default 10 s: the gyroscope carries
        /// the heading through the magnetometer's noise and through short disturbances the
        /// field's strength and dip do not reveal (a disturbance across the Earth's field turns
        /// it without changing its length).
        public var timeConstantSeconds = 10.0
        /// The heading error of a second of a clean, calibrated field's samples, degrees (1σ).
        /// Default 3°: what a calibration leaves and a tilt's error adds (at a dip of 68°, 1° of
        /// tilt turns the horizontal field by up to 2.5°).
        public var cleanFieldErrorDegrees = 3.0

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// What is known of the heading: nothing, one sample (its variance is one sample's, set by
    /// the next sample's interval), or a variance.
    private enum Knowledge: Equatable {
        case nothing, oneSample
        case varianceDegrees2(Double)
    }
    private var knowledge = Knowledge.nothing
    /// Seconds the heading has coasted since it was last corrected.
    private var coastingSeconds = 0.0

    /// No heading yet.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Whether a sample has set the heading.
    public var hasHeading: Bool { knowledge != .nothing }

    /// The heading's variance, degrees²; infinite until a second sample has followed the first.
    public var varianceDegrees2: Double {
        if case .varianceDegrees2(let variance) = knowledge { variance } else { .infinity }
    }

    /// The gain for one sample: the share of its disagreement with the heading to correct.
    /// - Parameters:
    ///   - weight: how far the field is trusted now, 0…1 (0: the heading coasts).
    ///   - seconds: time since the previous sample.
    ///   - biasSigmaDegreesPerSecond: the gyroscope bias's uncertainty.
    public mutating func gain(weight: Double, seconds: Double, biasSigmaDegreesPerSecond: Double) -> Double {
        let weight = min(1, max(0, weight))
        guard hasHeading else {
            // The first sample sets the heading whatever the weight: there is nothing better.
            knowledge = .oneSample
            return 1
        }
        guard seconds > 0, seconds.isFinite else { return 0 }
        // One sample's variance: a second's error spread over the second's samples. The heading
        // of a single sample is as uncertain as one.
        let noise = settings.cleanFieldErrorDegrees * settings.cleanFieldErrorDegrees / seconds
        var variance = knowledge == .oneSample ? noise : varianceDegrees2
        defer { knowledge = .varianceDegrees2(variance) }
        guard weight > 0 else {
            coastingSeconds += seconds
            return 0
        }
        if coastingSeconds > 0 {
            let drift = biasSigmaDegreesPerSecond * coastingSeconds
            if drift.isFinite { variance += drift * drift }
            coastingSeconds = 0
        }
        let averaging = weight * variance / (weight * variance + noise)
        variance *= 1 - averaging
        let steady = 1 - exp(-seconds / settings.timeConstantSeconds)
        return max(averaging, steady * weight)
    }
}
