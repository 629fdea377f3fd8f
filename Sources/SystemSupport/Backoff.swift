/// Waits between attempts at something that keeps failing (opening an IMU that is not there,
/// setting up a PWM channel again): the first wait after the first failure, doubling after each
/// further one up to a longest, back to the first after a success.
public struct Backoff: Sendable, Hashable {
    /// The wait after the first failure.
    public let first: Duration
    /// The longest wait.
    public let longest: Duration
    /// Failures since the last success.
    public private(set) var failures = 0

    /// A backoff with no failures yet.
    ///
    /// - Parameters:
    ///   - first: The wait after the first failure; positive.
    ///   - longest: The longest wait; at least `first`.
    public init(first: Duration, longest: Duration) {
        precondition(first > .zero && longest >= first, "a backoff from \(first) to \(longest)")
        self.first = first
        self.longest = longest
    }

    /// Counts a failure.
    ///
    /// - Returns: How long to wait before the next attempt: `first`, then twice as long each
    ///   time, at most `longest`.
    public mutating func failed() -> Duration {
        failures += 1
        var wait = first
        for _ in 1..<failures {
            guard wait < longest else { break }
            wait = wait * 2
        }
        return min(wait, longest)
    }

    /// Counts a success: the next failure waits `first` again.
    public mutating func succeeded() { failures = 0 }
}
