/// The fixed messages the motor plays outside guidance. Each has its own rhythm, because on a
/// single motor rhythm is what people tell apart, not strength (reference/haptics.md §0).
public enum HapticPattern: String, Sendable, Hashable, CaseIterable {
    /// A destination was set: a short tick, then a longer pulse ("da-daa").
    case destinationAccepted = "accepted"
    /// Arrived: three long pulses.
    case arrived
    /// A route's waypoint reached (or passed), guiding on to the next: a long pulse, then a
    /// short one ("daa-da"), an arrival cut short and the reverse of `accepted`.
    case waypointReached = "waypoint-reached"
    /// A walk's turn is about 15 m ahead (``WalkProgress``): two quick, even taps ("di-dit"),
    /// unlike every other pattern's long pulse, so that a corner is never taken for arrival.
    case cornerAhead = "corner-ahead"
    /// The fix is gone or too poor to guide: two long, slow pulses.
    case gpsLost = "gps-lost"
    /// The heading cannot be trusted (no compass, interference, not calibrated): five quick
    /// rough ticks.
    case headingUnreliable = "heading-unreliable"
    /// Calibration stored: short, short, long.
    case calibrationDone = "calibrated"
    /// While calibrating, a direction of the field has enough samples: one short tick, so the
    /// wearer feels the turn doing its work.
    case calibrationProgress = "direction-covered"
    /// Motor test: one second at full drive, to check the wiring and the feel.
    case motorTest = "test"

    /// One pulse of a pattern: how long it drives, how strongly (0 = the floor duty, 1 = the
    /// maximum duty), and the silence after it.
    public struct Pulse: Sendable, Hashable {
        public var on: Duration
        public var level: Double
        public var off: Duration
    }

    /// The pulses, in order.
    public var pulses: [Pulse] {
        func pulse(_ onMilliseconds: Int64, _ level: Double, _ offMilliseconds: Int64) -> Pulse {
            Pulse(on: .milliseconds(onMilliseconds), level: level, off: .milliseconds(offMilliseconds))
        }
        switch self {
        case .destinationAccepted: return [pulse(100, 0.5, 120), pulse(300, 1, 0)]
        case .arrived: return Array(repeating: pulse(400, 1, 250), count: 3)
        case .waypointReached: return [pulse(400, 1, 200), pulse(120, 1, 0)]
        case .cornerAhead: return [pulse(90, 1, 110), pulse(90, 1, 0)]
        case .gpsLost: return [pulse(700, 0.6, 400), pulse(700, 0.6, 0)]
        case .headingUnreliable: return Array(repeating: pulse(60, 0.8, 90), count: 5)
        case .calibrationDone: return [pulse(120, 0.7, 150), pulse(120, 0.7, 150), pulse(600, 0.7, 0)]
        case .calibrationProgress: return [pulse(80, 0.6, 0)]
        case .motorTest: return [pulse(1000, 1, 0)]
        }
    }
}
