/// How many lines a noisy source may log: at most ``linesPerWindow`` in each window of
/// ``windowSeconds``; the rest are counted, and the first line of the next window says how
/// many were left out. libmicrohttpd logs a line for every connection it refuses, so a flood
/// of connections was a flood of lines, and a reader that did not keep up (a pipe, the
/// journal's rate limit) blocked the library's listening thread in `write` and with it the
/// server's stop (issue 38). Pure: the caller gives the time.
public struct LogBudget: Sendable {
    /// Lines logged in a window.
    public static let linesPerWindow = 20
    /// The window, seconds.
    public static let windowSeconds = 60.0

    private var windowStart = -Double.infinity
    private var logged = 0
    private var suppressed = 0

    /// A budget with nothing spent.
    public init() {}

    /// Whether a line may be logged at `now` (monotonic seconds), and if so how many were
    /// left out before it (to say so with it).
    public mutating func admit(at now: Double) -> (allowed: Bool, suppressedBefore: Int) {
        var before = 0
        if now - windowStart >= Self.windowSeconds {
            windowStart = now
            logged = 0
            before = suppressed
            suppressed = 0
        }
        guard logged < Self.linesPerWindow else {
            suppressed += 1
            return (false, 0)
        }
        logged += 1
        return (true, before)
    }
}
