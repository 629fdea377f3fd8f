import ControlProtocol

/// Presses and releases of one button, in, and the wearer's gestures out: single, double and
/// triple taps, a long press and a very long one. Pure: the times are given (the records' own
/// time stamps, so that a stall of the reader changes no gesture), and ``tick(atSeconds:)``
/// ends a run of taps once the gap after the last has passed.
///
/// A contact bounces for a few milliseconds: an edge is taken at once, and the edges that
/// follow within ``Settings/debounceSeconds`` only move where the contact is; at the end of
/// that window the button takes that level (so three edges within 5 ms are one press).
public struct GestureRecognizer: Sendable {
    /// The timing of gestures, seconds.
    public struct Settings: Sendable, Hashable {
        /// Edges this soon after the last taken are bounce.
        public var debounceSeconds = 0.03
        /// After a tap, the longest wait for the next one of the same gesture.
        public var gapSeconds = 0.4
        /// A press held this long or longer is a long press.
        public var longSeconds = 0.8
        /// A press held this long or longer is a very long press.
        public var veryLongSeconds = 3.0

        public init() {}
    }

    public let settings: Settings
    /// Whether the button is down, as taken (bounce filtered out).
    public private(set) var isDown = false
    /// Where the contact is now, bounce included.
    private var contactDown = false
    /// Until when edges are bounce.
    private var settlingUntil = -Double.infinity
    private var pressedAt = 0.0
    private var releasedAt = 0.0
    /// Taps made so far in the gesture under way.
    private var taps = 0
    /// The latest time seen: an edge stamped before it is taken as at it, so that stamps that
    /// go back (two devices' clocks, a script's presses overlapping) never make time run back.
    private var latestSeconds = -Double.infinity

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// When ``tick(atSeconds:)`` may next have something to say: the end of the bounce window
    /// or of the gap after a tap; nil while there is nothing to wait for.
    public var nextDeadline: Double? {
        if contactDown != isDown { return settlingUntil }
        return taps > 0 && !isDown ? releasedAt + settings.gapSeconds : nil
    }

    /// An edge of the contact: down (pressed) or up, at `seconds`. The gestures it completes,
    /// in order (two at most: a run of taps whose gap passed unseen, then this one's).
    public mutating func edge(isDown down: Bool, atSeconds stamp: Double) -> [ButtonGesture] {
        let seconds = max(stamp, latestSeconds)
        latestSeconds = seconds
        var done = settle(atSeconds: seconds)
        contactDown = down
        guard seconds >= settlingUntil, down != isDown else { return done }
        done += take(down, atSeconds: seconds)
        return done
    }

    /// The time is now `seconds`: a bounce settled, or the gap after the last tap passed.
    public mutating func tick(atSeconds seconds: Double) -> [ButtonGesture] {
        settle(atSeconds: seconds)
    }

    /// Forgets a press under way (the device went away, or the kernel dropped events), so that
    /// nothing half seen becomes a gesture.
    public mutating func reset() {
        isDown = false
        contactDown = false
        taps = 0
        settlingUntil = -.infinity
    }

    private mutating func settle(atSeconds seconds: Double) -> [ButtonGesture] {
        var done: [ButtonGesture] = []
        if contactDown != isDown, seconds >= settlingUntil {
            done += take(contactDown, atSeconds: settlingUntil)
        }
        // Compared as `nextDeadline` computes it: `seconds - releasedAt` can round below the gap
        // at the very deadline, and a reader waking then would be told to wait again.
        if taps > 0, !isDown, seconds >= releasedAt + settings.gapSeconds {
            done.append(taps == 1 ? .single : .double)
            taps = 0
        }
        return done
    }

    /// The button taken down or up at `seconds`.
    private mutating func take(_ down: Bool, atSeconds seconds: Double) -> [ButtonGesture] {
        isDown = down
        settlingUntil = seconds + settings.debounceSeconds
        var done: [ButtonGesture] = []
        if down {
            // A press after the gap passed unseen (a stalled reader): the taps before it end.
            if taps > 0, seconds >= releasedAt + settings.gapSeconds {
                done.append(taps == 1 ? .single : .double)
                taps = 0
            }
            pressedAt = seconds
            return done
        }
        let held = seconds - pressedAt
        releasedAt = seconds
        if held >= settings.veryLongSeconds {
            taps = 0
            done.append(.veryLong)
        } else if held >= settings.longSeconds {
            // Taps before a long press belong to no gesture: the long press is what was meant.
            taps = 0
            done.append(.long)
        } else {
            taps += 1
            if taps == 3 {
                taps = 0
                done.append(.triple)
            }
        }
        return done
    }
}
