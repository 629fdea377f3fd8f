/// A fault that recurs (a read that fails a hundred times a second, a gpsd that refuses every
/// reconnection) reported without flooding the log: the first of a spell, then a count every
/// ``repeatInterval`` while it lasts, then its end, declared only once ``quietInterval`` has
/// passed without one, so a fault that flickers on and off is one spell, not hundreds.
///
/// A value that says what to log; the caller logs it, with the time it passes in.
struct FaultSpell<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// What to log now.
    enum Report: Equatable {
        /// A spell began with this fault.
        case began
        /// The spell goes on: `count` faults since the last report.
        case continuing(count: Int)
        /// No fault for ``quietInterval``: the spell is over, after `count` faults in all.
        case ended(count: Int)
    }

    /// How often a spell under way is reported again.
    let repeatInterval: Duration
    /// How long without a fault ends a spell.
    let quietInterval: Duration

    private struct Spell {
        var reported: Instant
        var lastFault: Instant
        var sinceReport = 0
        var total = 1
    }

    private var spell: Spell?

    init(repeatInterval: Duration = .seconds(300), quietInterval: Duration = .seconds(10)) {
        self.repeatInterval = repeatInterval
        self.quietInterval = quietInterval
    }

    /// Whether a spell is under way.
    var isUnderWay: Bool { spell != nil }

    /// One fault, at `now`.
    mutating func fault(at now: Instant) -> Report? {
        guard var current = spell else {
            spell = Spell(reported: now, lastFault: now)
            return .began
        }
        current.lastFault = now
        current.sinceReport += 1
        current.total += 1
        defer { spell = current }
        guard current.reported.duration(to: now) >= repeatInterval else { return nil }
        let count = current.sinceReport
        current.reported = now
        current.sinceReport = 0
        return .continuing(count: count)
    }

    /// Things working, at `now`: the end of the spell once it has been quiet long enough.
    mutating func working(at now: Instant) -> Report? {
        guard let current = spell, current.lastFault.duration(to: now) >= quietInterval else { return nil }
        spell = nil
        return .ended(count: current.total)
    }
}
