/// The `pattern` of a `buzz` request: the motor's fixed messages, by their wire names. The
/// daemon maps each to its haptic pattern (one for one, by name).
public enum BuzzPattern: String, Sendable, Hashable, CaseIterable {
    /// A destination was set: "da-daa".
    case accepted
    /// Arrived: three long pulses.
    case arrived
    /// A route's waypoint reached: a long pulse, then a short one.
    case waypointReached = "waypoint-reached"
    /// A walk's turn is near: two quick, even taps.
    case cornerAhead = "corner-ahead"
    /// The fix is lost: two long, slow pulses.
    case gpsLost = "gps-lost"
    /// The heading cannot be trusted: five quick ticks.
    case headingUnreliable = "heading-unreliable"
    /// Calibration stored: short, short, long.
    case calibrated
    /// One second at full drive, to check the wiring.
    case test
}
