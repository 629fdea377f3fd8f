import Geodesy

/// The fixed messages the motor plays outside guidance. Each has its own rhythm, because on a
/// single motor rhythm is what people tell apart, not strength (reference/haptics.md §0).
///
/// Each has a name (`buzz`, `waypointd motor-test`), except ``clock(hour:hundreds:)``, the
/// answer to "where am I" without a voice, which is made for the question.
public enum HapticPattern: Sendable, Hashable {
    /// A destination was set: a short tick, then a longer pulse ("da-daa").
    case destinationAccepted
    /// Arrived: three long pulses.
    case arrived
    /// A route's waypoint reached (or passed), guiding on to the next: a long pulse, then a
    /// short one ("daa-da"), an arrival cut short and the reverse of `accepted`.
    case waypointReached
    /// A walk's turn is about 15 m ahead (``WalkProgress``): two quick, even taps ("di-dit"),
    /// unlike every other pattern's long pulse, so that a corner is never taken for arrival.
    case cornerAhead
    /// The fix is gone or too poor to guide: two long, slow pulses.
    case gpsLost
    /// The heading cannot be trusted (no compass, interference, not calibrated): five quick
    /// rough ticks.
    case headingUnreliable
    /// Calibration stored: short, short, long.
    case calibrationDone
    /// While calibrating, a direction of the field has enough samples: one short tick, so the
    /// wearer feels the turn doing its work.
    case calibrationProgress
    /// Motor test: one second at full drive, to check the wiring and the feel.
    case motorTest
    /// A button's gesture was taken: one crisp tick, felt within 100 ms of the release.
    case pressed
    /// A button's gesture cannot be done now (no destination, no fix): two short, soft pulses.
    case refused
    /// Guidance paused by the button: three taps slowing down and fading ("di-di - di"),
    /// winding down.
    case paused
    /// Guidance resumed by the button: three taps speeding up and swelling ("di - di-di"),
    /// winding up: the pause's rhythm backwards.
    case resumed
    /// "Where am I" without a voice: the destination's direction as a clock hour (12 ahead, 3
    /// to the right), one long pulse an hour, then its distance in hundreds of metres, one
    /// short tick each (at least one; ten mean 1 km or more).
    case clock(hour: Int, hundreds: Int)

    /// The patterns with a name, in the order `waypointd motor-test --help` lists them.
    public static let named: [HapticPattern] = [
        .destinationAccepted, .arrived, .waypointReached, .cornerAhead, .gpsLost, .headingUnreliable, .calibrationDone,
        .calibrationProgress, .motorTest, .pressed, .refused, .paused, .resumed,
    ]

    /// The pattern of this name.
    public init?(rawValue: String) {
        guard let named = Self.named.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = named
    }

    /// The pattern's name: `clock` for the clock answer, whatever its numbers.
    public var rawValue: String {
        switch self {
        case .destinationAccepted: "accepted"
        case .arrived: "arrived"
        case .waypointReached: "waypoint-reached"
        case .cornerAhead: "corner-ahead"
        case .gpsLost: "gps-lost"
        case .headingUnreliable: "heading-unreliable"
        case .calibrationDone: "calibrated"
        case .calibrationProgress: "direction-covered"
        case .motorTest: "test"
        case .pressed: "pressed"
        case .refused: "refused"
        case .paused: "paused"
        case .resumed: "resumed"
        case .clock: "clock"
        }
    }

    /// The clock answer for a destination `errorDegrees` off the heading (positive: to the
    /// right) and `meters` away: the hour rounded from 30° sectors, the hundreds rounded, at
    /// least 1 and at most 10.
    public static func clock(errorDegrees: Double, meters: Double) -> HapticPattern {
        .clock(hour: clockHour(errorDegrees: errorDegrees), hundreds: min(10, max(1, Int((meters / 100).rounded()))))
    }

    /// The hour of a clock face for a direction `errorDegrees` off the heading (positive: to
    /// the right): 12 ahead, 3 to the right, 6 behind, 9 to the left; each hour 30° wide.
    public static func clockHour(errorDegrees: Double) -> Int {
        let sector = Int((Angle.normalized(errorDegrees) / 30).rounded()) % 12
        return sector == 0 ? 12 : sector
    }

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
        case .pressed: return [pulse(50, 1, 0)]
        case .refused: return [pulse(150, 0.3, 150), pulse(150, 0.3, 0)]
        case .paused: return [pulse(100, 1, 100), pulse(100, 0.7, 250), pulse(100, 0.4, 0)]
        case .resumed: return [pulse(100, 0.4, 250), pulse(100, 0.7, 100), pulse(100, 1, 0)]
        case .clock(let hour, let hundreds):
            // Hours long and strong, hundreds short and lighter, with a pause between that no
            // pulse of either has, so the two counts never run together.
            let hours = Array(repeating: pulse(250, 1, 200), count: min(12, max(1, hour)))
            let ticks = Array(repeating: pulse(70, 0.6, 180), count: min(10, max(1, hundreds)))
            return hours.dropLast() + [pulse(250, 1, 900)] + ticks
        }
    }
}
