#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attitude of the body from a gyroscope, an accelerometer and a magnetometer, as VQF
/// estimates it (D. Laidig, T. Seel, "VQF: Highly accurate IMU orientation estimation with bias
/// estimation and magnetic disturbance rejection", Information Fusion 91, 2023), written here
/// from the paper. Three parts, each correcting only what it can see:
///
/// 1. The gyroscope, less its estimated bias, turns a unit quaternion exactly each sample
///    (the rotation vector's exponential), into an almost-inertial frame that drifts only by
///    the bias left over.
/// 2. The accelerometer corrects the inclination. Its readings are turned into that frame and
///    low-passed there (`accelerometerTimeConstantSeconds`): a linear acceleration, which comes
///    and goes in an inertial frame, averages out, while gravity stays. The low-passed vector
///    is then turned onto the vertical by the smallest rotation, about a horizontal axis.
/// 3. The magnetometer corrects only the heading: an angle about the vertical, nudged towards
///    the horizontal field's direction, by `HeadingCorrection`'s gain. A disturbed field
///    can therefore never tilt the estimate; the caller decides how much to trust each sample.
///
/// Frames: body x forward, y right, z down; reference frame north, east, down (NED), with
/// north the magnetic north once the magnetometer has corrected it. Pure; no allocation.
public struct OrientationEstimator: Sendable {
    /// Time constants, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// How slowly the accelerometer corrects the inclination, seconds. Default 1.5 s:
        /// long enough to average out the linear accelerations of walking and of a hand
        /// waving the device (0.5–5 Hz), short enough that what the gyroscope's bias turns the
        /// inclination by in the meantime stays small. (VQF's default is 3 s; on the BROAD
        /// recordings 1.5 s is better: 3.3° against 3.8° mean RMS with VQF itself.)
        public var accelerometerTimeConstantSeconds = 1.5
        /// How the magnetometer corrects the heading.
        public var correction = HeadingCorrection.Settings()
        /// Rest detection, for the bias.
        public var rest = RestDetector.Settings()
        /// The gyroscope's bias.
        public var bias = GyroscopeBias.Settings()

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// Body to the almost-inertial frame the gyroscope integrates into.
    private var integrated = Quaternion.identity
    /// The almost-inertial frame to the level frame: the accelerometer's correction.
    private var inclination = Quaternion.identity
    /// The level frame's heading offset from magnetic north, radians (rotation about down).
    private var headingOffsetRadians = 0.0
    /// The specific force in the almost-inertial frame, low-passed.
    private var inertialForce: LowPassFilter
    /// What the accelerometer's corrections say of the bias in the level frame, low-passed.
    private var biasMeasurement: LowPassFilter
    private var restDetector: RestDetector
    /// The gyroscope's bias.
    public private(set) var bias: GyroscopeBias
    /// The gain of each magnetometer correction.
    private var correction: HeadingCorrection
    private var started = false
    /// The previous sample's angle increment, radians, for the coning term.
    private var previousIncrement = Vector3.zero

    /// An estimator that has seen nothing.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        inertialForce = LowPassFilter(timeConstantSeconds: settings.accelerometerTimeConstantSeconds)
        biasMeasurement = LowPassFilter(timeConstantSeconds: settings.accelerometerTimeConstantSeconds)
        restDetector = RestDetector(settings: settings.rest)
        bias = GyroscopeBias(settings: settings.bias)
        correction = HeadingCorrection(settings: settings.correction)
    }

    /// Whether the first sample has been taken.
    public var hasStarted: Bool { started }
    /// Whether the magnetometer has set the heading at least once.
    public var hasHeading: Bool { correction.hasHeading }
    /// Whether the device rests now.
    public var isResting: Bool { restDetector.isResting }

    /// Body to level frame (north unknown: the gyroscope's and the accelerometer's estimate).
    public var levelAttitude: Quaternion { inclination * integrated }

    /// The magnetic heading of the body's x axis, degrees in [0, 360), and the length of its
    /// horizontal projection (near 0 when x points up or down).
    public var heading: (degrees: Double, horizontal: Double) {
        let x = levelAttitude.xAxis
        let degrees = (atan2(x.y, x.x) + headingOffsetRadians) * 180 / .pi
        return (HeadingEstimator.wrap(degrees), (x.x * x.x + x.y * x.y).squareRoot())
    }

    /// Gravity's direction in the body frame.
    public var down: Vector3 { levelAttitude.conjugate.rotate(Vector3(0, 0, 1)) }

    /// Integrates the gyroscope and corrects the inclination with the accelerometer.
    /// - Parameters:
    ///   - angularRateDegreesPerSecond: the gyroscope, body frame.
    ///   - accelerationG: the specific force, body frame (at rest (0, 0, −1) when level).
    ///   - seconds: time since the previous sample (0 for the first, or for a sample dated like
    ///     the one before).
    public mutating func update(angularRateDegreesPerSecond rate: Vector3, accelerationG: Vector3, seconds: Double) {
        guard rate.isFinite, accelerationG.isFinite else { return }
        if !started {
            started = true
            // Level the first sample at once: the filter would otherwise take seconds to.
            inclination = Self.leveling(accelerationG)
            inertialForce.start(at: accelerationG)
            return
        }
        guard seconds > 0 else { return }

        restDetector.update(angularRateDegreesPerSecond: rate, accelerationG: accelerationG, seconds: seconds)
        bias.predict(seconds: seconds)
        if restDetector.isResting {
            bias.observeAtRest(meanRateDegreesPerSecond: restDetector.meanRateDegreesPerSecond, seconds: seconds)
        }

        let omega = (rate - bias.degreesPerSecond) * (.pi / 180)
        // Each sample is the chip's mean rate over its interval, an angle increment. Turning
        // about an axis that itself turns (a hand shaking the device, a trunk swaying as it
        // turns) leaves a rotation the increments' plain sum misses, one way whatever the
        // direction, so the heading drifts with every shake: the two-sample coning term
        // (P. G. Savage, "Strapdown inertial navigation integration algorithm design part 1",
        // J. Guidance 21(1), 1998) puts it back. On BROAD's recordings the gyroscope alone
        // drifted 12.7° over 95 s of shaking near a magnet, and 6.7° with it.
        let increment = omega * seconds
        let coned = increment + previousIncrement.cross(increment) * (1.0 / 12)
        previousIncrement = increment
        integrated = (integrated * Quaternion(rotationVector: coned)).normalized

        let force = inertialForce.update(integrated.rotate(accelerationG), seconds: seconds)
        let level = inclination.rotate(force).normalized
        let correction = Self.leveling(level)
        inclination = (correction * inclination).normalized

        // The bias left over, ε, turns the integrated frame at R·ε (R: body to level), and the
        // correction turns it back: its rotation vector over the step is −R·ε·dt (north and
        // east; down cannot be seen). So R·b = R·b̂ − correction/dt, low-passed as the
        // accelerometer is, for the bias filter to compare with R·b.
        let correctionRate = Vector3(2 * correction.x, 2 * correction.y, 0) * (180 / .pi / seconds)
        let rotation = levelAttitude.matrix
        let estimated = Vector3(rotation.row0.dot(bias.degreesPerSecond), rotation.row1.dot(bias.degreesPerSecond), 0)
        let measured = biasMeasurement.update(estimated - correctionRate, seconds: seconds)
        if !restDetector.isResting {
            bias.observeInMotion(
                north: rotation.row0, east: rotation.row1, measured: (measured.x, measured.y), seconds: seconds)
        }
    }

    /// The magnetometer's correction of the heading.
    /// - Parameters:
    ///   - field: calibrated field in the level frame (`levelAttitude.rotate(fieldInBody)`).
    ///   - weight: how far the field is trusted, 0…1 (0 while it is disturbed: the heading
    ///     coasts on the gyroscope, and `HeadingCorrection` counts how long).
    ///   - seconds: time since the previous sample.
    public mutating func correctHeading(levelField field: Vector3, weight: Double, seconds: Double) {
        let horizontal = (field.x * field.x + field.y * field.y).squareRoot()
        guard horizontal > 0, horizontal.isFinite else { return }
        // No time passed (a burst's samples dated like the one before): the heading holds.
        guard seconds > 0 || !hasHeading else { return }
        let target = -atan2(field.y, field.x)
        let error = remainder(target - headingOffsetRadians, 2 * .pi)
        let gain = correction.gain(weight: weight, seconds: seconds, biasSigmaDegreesPerSecond: bias.sigmaDegreesPerSecond)
        headingOffsetRadians = remainder(headingOffsetRadians + gain * error, 2 * .pi)
    }

    /// The smallest rotation taking the direction of `force` (a specific force in the level
    /// frame, pointing up at rest) onto up, (0, 0, −1): about a horizontal axis.
    static func leveling(_ force: Vector3) -> Quaternion {
        let u = force.normalized
        // q = (1 + u·v, u × v) normalized, with v = (0, 0, −1).
        let w = 1 - u.z
        guard w > 1e-9 else { return Quaternion(0, 1, 0, 0) }
        return Quaternion(w, -u.y, u.x, 0).normalized
    }
}
