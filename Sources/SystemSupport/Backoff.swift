/// Waits between attempts at something that keeps failing (opening an IMU that is not there,
/// setting up a PWM channel again, reconnecting to gpsd, configuring chips that do not answer):
/// the first wait after the first failure, doubling after each further one up to a longest,
/// back to the first after a success. The one backoff of the daemon, in time (`Duration`) or in
/// counts (the IMU reader's polls).
public struct Backoff<Value: Comparable & AdditiveArithmetic & Sendable & Hashable>: Sendable, Hashable {
    /// The wait after the first failure.
    public let first: Value
    /// The longest wait.
    public let longest: Value
    /// Failures since the last success.
    public private(set) var failures = 0

    /// A backoff with no failures yet.
    ///
    /// - Parameters:
    ///   - first: The wait after the first failure; positive.
    ///   - longest: The longest wait; at least `first`.
    public init(first: Value, longest: Value) {
        precondition(first > .zero && longest >= first, "a backoff from \(first) to \(longest)")
        self.first = first
        self.longest = longest
    }

    /// Counts a failure.
    ///
    /// - Returns: How long to wait before the next attempt: `first`, then twice as long each
    ///   time, at most `longest`.
    public mutating func failed() -> Value {
        failures += 1
        return wait(afterFailures: failures)
    }

    /// Counts a success: the next failure waits `first` again.
    public mutating func succeeded() { failures = 0 }

    /// The wait after `count` failures in a row: nothing before the first, then `first`
    /// doubled once per further failure, at most `longest` (doubling stops at the cap, so a
    /// long outage cannot overflow).
    public func wait(afterFailures count: Int) -> Value {
        guard count > 0 else { return .zero }
        var wait = first
        for _ in 1..<count {
            guard wait < longest else { break }
            wait = wait + wait
        }
        return min(wait, longest)
    }
}
