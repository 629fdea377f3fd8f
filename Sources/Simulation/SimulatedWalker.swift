#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import Heading

/// A person wearing the device, for `--simulate` and tests: standing, turning on the spot until
/// they face the destination, then walking toward it at 1.4 m/s with a gait's sway and
/// small drifts off course, until they arrive.
///
/// Deterministic for a seed; time advances only through `step(seconds:)`.
public struct SimulatedWalker: Sendable {
    /// What the walker is doing.
    public enum Activity: String, Sendable {
        /// Standing, turning on the spot to find the destination.
        case scanning
        /// Walking toward it.
        case walking
        /// Standing at the destination.
        case arrived
        /// Standing, turning the device through a figure-eight for a calibration.
        case calibrating
        /// Standing, turning only as told (``turn(byDegrees:degreesPerSecond:)``).
        case turningAsTold
    }

    /// Walking speed, m/s.
    public var walkingSpeedMetersPerSecond = 1.4
    /// Turning speed while scanning, °/s.
    public var scanRateDegreesPerSecond = 30.0
    /// How close to the bearing counts as facing it before setting off, degrees.
    public var startWithinDegrees = 5.0

    /// Where the walker is.
    public private(set) var position: Coordinate
    /// Which way the body faces, degrees from true north.
    public private(set) var yawDegrees: Double
    /// The current activity.
    public private(set) var activity: Activity = .scanning
    /// Seconds since the start.
    public private(set) var elapsedSeconds = 0.0
    /// The destination, if any. A new one sets a walker who stands at the last (or walks to
    /// it) scanning for it again; one told to turn, or calibrating, goes on doing that.
    public var destination: Coordinate? {
        didSet {
            if destination != oldValue, activity == .arrived || activity == .walking { activity = .scanning }
        }
    }
    /// Whether the wearer is turning the device for a calibration: while true they stand and
    /// tumble it through every orientation, then go back to what they were doing.
    public var isCalibrating = false {
        didSet { if isCalibrating != oldValue { activity = isCalibrating ? .calibrating : .scanning } }
    }

    private var random: SplitMix64
    private var drift = 0.0
    /// What is left of the turn told, degrees (signed), and its rate.
    private var toldTurn = (remainingDegrees: 0.0, degreesPerSecond: 0.0)

    /// A walker at a place, facing `yawDegrees`.
    public init(position: Coordinate, yawDegrees: Double, seed: UInt64) {
        self.position = position
        self.yawDegrees = yawDegrees
        random = SplitMix64(seed: seed)
    }

    /// Turns on the spot by `degrees` (clockwise positive) at `degreesPerSecond`, over the
    /// next steps; from now on the walker stands and turns only as told.
    public mutating func turn(byDegrees degrees: Double, degreesPerSecond: Double) {
        activity = .turningAsTold
        toldTurn = (degrees, abs(degreesPerSecond))
    }

    /// Pushed `meters` to the right of where the walker faces, at once (a script's `stray`):
    /// off the path, as after a wrong turn; the walker then heads for the destination again.
    public mutating func stray(meters: Double) {
        move(meters: meters, towardDegrees: Angle.normalized(yawDegrees + 90))
        if activity == .walking || activity == .arrived { activity = .scanning }
    }

    /// The bearing and distance to the destination, if any.
    public var course: GeodesicInverse? {
        destination.map {
            Geodesic.wgs84.inverse(from: position, to: $0)
        }
    }

    /// The body's attitude now: the yaw, with a gait's pitch and roll while walking, or a
    /// tumble through every orientation while calibrating.
    public var attitude: Attitude {
        if activity == .calibrating {
            // Incommensurate periods, so the field sweeps every direction of the body in ~30 s.
            let t = elapsedSeconds
            return Attitude(
                yawDegrees: yawDegrees, pitchDegrees: 75 * sin(2 * .pi * t / 7),
                rollDegrees: 170 * sin(2 * .pi * t / 11.3))
        }
        guard activity == .walking else { return Attitude(yawDegrees: yawDegrees, pitchDegrees: 4, rollDegrees: 0) }
        let phase = 2 * Double.pi * 2 * elapsedSeconds
        return Attitude(yawDegrees: yawDegrees, pitchDegrees: 4 + 2 * sin(phase), rollDegrees: 3 * sin(phase / 2))
    }

    /// The trunk's linear acceleration now, NED, g.
    public var linearAccelerationG: Vector3 {
        activity == .walking ? Self.trunkAccelerationG(atSeconds: elapsedSeconds, yawDegrees: yawDegrees) : .zero
    }

    /// A walker's trunk acceleration, NED, g: forward 0.15 g at 2 Hz, lateral 0.07 g at 1 Hz,
    /// vertical 0.25 g at 2 Hz, in the frame of the walking direction.
    public static func trunkAccelerationG(atSeconds t: Double, yawDegrees: Double) -> Vector3 {
        let forward = 0.15 * sin(2 * .pi * 2 * t)
        let lateral = 0.07 * sin(2 * .pi * t + 0.5)
        let vertical = 0.25 * sin(2 * .pi * 2 * t + 1.2)
        let ψ = yawDegrees * .pi / 180
        return Vector3(forward * cos(ψ) - lateral * sin(ψ), forward * sin(ψ) + lateral * cos(ψ), vertical)
    }

    /// The body's rotation rates, °/s, in the body frame (for a simulated gyroscope).
    public private(set) var yawRateDegreesPerSecond = 0.0

    /// Advances time.
    public mutating func step(seconds: Double) {
        elapsedSeconds += seconds
        let previousYaw = yawDegrees
        defer { yawRateDegreesPerSecond = Angle.signedDifference(from: previousYaw, to: yawDegrees) / seconds }
        if activity == .calibrating {
            yawDegrees = Angle.normalized(yawDegrees + 40 * seconds)
            return
        }
        if activity == .turningAsTold {
            let most = toldTurn.degreesPerSecond * seconds
            let turn = max(-most, min(most, toldTurn.remainingDegrees))
            toldTurn.remainingDegrees -= turn
            yawDegrees = Angle.normalized(yawDegrees + turn)
            return
        }
        guard let course, destination != nil else {
            activity = .scanning
            return
        }
        let bearing = Angle.normalized(course.initialAzimuthDegrees)
        let error = Angle.signedDifference(from: yawDegrees, to: bearing)
        switch activity {
        case .arrived, .calibrating, .turningAsTold:
            return
        case .scanning:
            // Sweep the body left and right, wider each time, until the bearing is in front.
            if abs(error) <= startWithinDegrees {
                activity = .walking
                return
            }
            // Turn on the spot, as a wearer does to find the buzz, until the bearing is in front.
            yawDegrees = Angle.normalized(yawDegrees + scanRateDegreesPerSecond * seconds)
        case .walking:
            if course.distanceMeters <= 5 {
                activity = .arrived
                return
            }
            // Steer back toward the bearing, with a slow random drift off course.
            drift += random.gaussian() * 2 * seconds.squareRoot()
            drift *= 1 - min(1, seconds / 20)
            yawDegrees = Angle.normalized(yawDegrees + (error + drift) * min(1, seconds / 1.5))
            move(meters: walkingSpeedMetersPerSecond * seconds, towardDegrees: yawDegrees)
        }
    }

    /// Moves on a local flat Earth: plenty for steps of a metre.
    private mutating func move(meters: Double, towardDegrees: Double) {
        let ψ = towardDegrees * .pi / 180
        let metersPerDegreeLatitude = 111_132.0
        let metersPerDegreeLongitude = 111_320.0 * cos(position.latitudeDegrees * .pi / 180)
        position = Coordinate(
            uncheckedLatitudeDegrees: position.latitudeDegrees + meters * cos(ψ) / metersPerDegreeLatitude,
            longitudeDegrees: position.longitudeDegrees + meters * sin(ψ) / max(metersPerDegreeLongitude, 1))
    }
}
