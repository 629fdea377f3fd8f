/// Slows down guessing of pairing tokens, per client address: after ``maximumFailures`` wrong
/// ones from an address in ``windowSeconds``, that address is refused (429) for
/// ``lockSeconds``, right token or wrong. One address flooding wrong tokens locks out only
/// itself, not the wearer's phone (issue 38: 10 wrong tokens a minute from anywhere once locked
/// every phone out, for as long as they kept coming).
///
/// Many addresses together meet a ceiling: past ``maximumFailuresOverall`` wrong tokens in a
/// window from all of them, every address that has failed at all is refused for
/// ``lockSeconds``, while an address with no failure is still judged, so a right token from the
/// phone still pairs. The table of addresses is bounded (``maximumAddresses``); when it is
/// full, the address whose last failure is oldest is forgotten.
///
/// A token is 256 random bits, so guessing is hopeless anyway: the throttle keeps a flood from
/// costing the Pi more than a refusal. Pure: the caller gives the time and the address.
public struct PairingThrottle: Sendable {
    /// Wrong tokens allowed from one address in a window.
    public static let maximumFailures = 10
    /// Wrong tokens from all addresses in a window before those addresses are refused.
    public static let maximumFailuresOverall = 100
    /// The window, seconds.
    public static let windowSeconds = 60.0
    /// How long an address (or, past the ceiling, every failing address) is refused, seconds.
    public static let lockSeconds = 60.0
    /// The most addresses remembered.
    public static let maximumAddresses = 256

    private struct Record: Sendable {
        var windowStart: Double
        var failures = 0
        var lastFailure: Double
        var lockedUntil = -Double.infinity
    }

    private var records: [String: Record] = [:]
    private var overallWindowStart = -Double.infinity
    private var overallFailures = 0
    private var overallLockedUntil = -Double.infinity

    /// A throttle with nothing counted.
    public init() {}

    /// Whether an attempt from `address` may be judged at `now` (monotonic seconds).
    public func allows(_ address: String, at now: Double) -> Bool { secondsLeft(address, at: now) == 0 }

    /// Seconds until attempts from `address` are judged again, for `Retry-After`; 0 when they are.
    public func secondsLeft(_ address: String, at now: Double) -> Int {
        guard let record = records[address] else { return 0 }
        var until = record.lockedUntil
        if now < overallLockedUntil { until = max(until, overallLockedUntil) }
        return now < until ? max(1, Int((until - now).rounded(.up))) : 0
    }

    /// How many addresses are remembered.
    public var addressCount: Int { records.count }

    /// Counts a wrong token from `address` at `now`.
    public mutating func recordFailure(_ address: String, at now: Double) {
        if records[address] == nil, records.count >= Self.maximumAddresses { forgetOne(at: now) }
        var record = records[address] ?? Record(windowStart: now, lastFailure: now)
        if now - record.windowStart >= Self.windowSeconds {
            record.windowStart = now
            record.failures = 0
        }
        record.failures += 1
        record.lastFailure = now
        if record.failures >= Self.maximumFailures {
            record.lockedUntil = now + Self.lockSeconds
            record.failures = 0
            record.windowStart = now
        }
        records[address] = record

        if now - overallWindowStart >= Self.windowSeconds {
            overallWindowStart = now
            overallFailures = 0
        }
        overallFailures += 1
        if overallFailures >= Self.maximumFailuresOverall {
            overallLockedUntil = now + Self.lockSeconds
            overallFailures = 0
            overallWindowStart = now
        }
    }

    /// Makes room: an address neither locked nor failing this window if there is one, else
    /// the one whose last failure is oldest.
    private mutating func forgetOne(at now: Double) {
        let quiet = records.first { now >= $0.value.lockedUntil && now - $0.value.windowStart >= Self.windowSeconds }
        let oldest = quiet ?? records.min { $0.value.lastFailure < $1.value.lastFailure }
        if let oldest { records.removeValue(forKey: oldest.key) }
    }
}
