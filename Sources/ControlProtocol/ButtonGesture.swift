/// What the wearer did with the button, as the recogniser (`GestureRecognizer`) tells it and
/// as `STATUS` and the simulation's script name it.
public enum ButtonGesture: String, Sendable, Hashable, CaseIterable {
    /// One short press: say where I am, and the destination's distance and direction.
    case single
    /// Two short presses: on to the route's next waypoint or turn, and say it.
    case double
    /// Three short presses: say the last sentence again.
    case triple
    /// One press held 0.8 s or more: pause guidance, or resume it.
    case long
    /// One press held 3 s or more: mark this place.
    case veryLong = "very-long"
}
