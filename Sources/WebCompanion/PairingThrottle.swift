/// Slows down guessing of pairing and session tokens: after ``maximumFailures`` wrong ones in
/// ``windowSeconds``, every attempt is refused (429) for ``lockSeconds``, right or wrong. A
/// token is 256 random bits, so guessing is hopeless anyway; the throttle keeps a flood from
/// costing the Pi more than a refusal. It counts for all clients together: per-address counts
/// would let one attacker with many addresses past, and a minute's wait to pair is no harm.
/// Pure: the caller gives the time.
public struct PairingThrottle: Sendable {
    /// Wrong tokens allowed in a window.
    public static let maximumFailures = 10
    /// The window, seconds.
    public static let windowSeconds = 60.0
    /// How long attempts are refused once the window's failures are spent, seconds.
    public static let lockSeconds = 60.0

    private var windowStart = -Double.infinity
    private var failures = 0
    private var lockedUntil = -Double.infinity

    /// A throttle with nothing counted.
    public init() {}

    /// Whether an attempt may be judged at `now` (monotonic seconds).
    public func allows(at now: Double) -> Bool { now >= lockedUntil }

    /// Counts a wrong token at `now`.
    public mutating func recordFailure(at now: Double) {
        if now - windowStart >= Self.windowSeconds {
            windowStart = now
            failures = 0
        }
        failures += 1
        if failures >= Self.maximumFailures {
            lockedUntil = now + Self.lockSeconds
            failures = 0
            windowStart = -Double.infinity
        }
    }

    /// Seconds until attempts are judged again, for `Retry-After`.
    public func secondsLeft(at now: Double) -> Int { max(0, Int((lockedUntil - now).rounded(.up))) }
}
