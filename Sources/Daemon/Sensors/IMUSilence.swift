/// When the IMU in use counts as not answering, for `status` (issue 30): every read has failed
/// for at least ``minimumDuration`` since the last good one, and at least ``minimumFailures``
/// reads. One failed read while idle (reads are two seconds apart) is a blip, not a lost board;
/// while guiding ten reads a second fail within the second.
struct IMUSilence<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The navigator's own heading timeout: after it the state is `no-heading` anyway.
    static var minimumDuration: Duration { .seconds(1) }
    static var minimumFailures: Int { 3 }

    private var lastGood: Instant
    private var failures = 0
    /// Whether a silence has begun and not yet ended.
    private(set) var isSilent = false

    /// Counting from `now`, as if a read had just worked (the reader was just opened).
    init(now: Instant) { lastGood = now }

    /// A read worked at `instant`; true if that ends a silence.
    mutating func answered(at instant: Instant) -> Bool {
        lastGood = instant
        failures = 0
        defer { isSilent = false }
        return isSilent
    }

    /// A read failed at `instant`; the last good read's instant if a silence begins now.
    mutating func failed(at instant: Instant) -> Instant? {
        failures += 1
        guard !isSilent, failures >= Self.minimumFailures, lastGood.duration(to: instant) >= Self.minimumDuration else {
            return nil
        }
        isSilent = true
        return lastGood
    }
}
