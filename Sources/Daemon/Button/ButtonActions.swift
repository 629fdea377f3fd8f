import ClientSupport
import ControlProtocol
import Guidance

/// What each gesture does: requests the control socket already has, answered by the core as
/// any client's are (so the button adds no second way into the daemon's state), a pattern on
/// the motor first (felt within 100 ms of the release that completes the gesture), then the
/// sentence from ``Presentation``, spoken by the ``Voice`` and shown in `STATUS`.
///
/// | gesture | requests | said |
/// |---|---|---|
/// | single | `where`, `status` | where the wearer is, the destination's distance and clock hour (no voice: the clock pattern) |
/// | double | `route next`, `status` | the next waypoint or turn |
/// | triple | none | the last sentence again |
/// | long | `status`, `mute` | guidance paused or resumed (the `paused` pattern after the mute, which silences the motor; `resumed` before) |
/// | very long | `place mark` | the place's name and how well it is known |
public struct ButtonActions: Sendable {
    /// Answers a request as the control socket would (`DaemonCore.handle`).
    let handle: @Sendable (ControlRequest) -> ControlReply
    /// Plays a pattern at once, ahead of any cue.
    let confirm: @Sendable (HapticPattern) -> Void
    let voice: Voice
    let handsFree: HandsFree
    /// The time of day for a marked place's name, UTC seconds since 1970.
    let wallClock: @Sendable () -> Int64
    /// How long a very long press was held, seconds: `place mark` averages the fixes of it.
    let markSeconds: Double

    public init(
        handle: @escaping @Sendable (ControlRequest) -> ControlReply, confirm: @escaping @Sendable (HapticPattern) -> Void,
        voice: Voice, handsFree: HandsFree, wallClock: @escaping @Sendable () -> Int64, markSeconds: Double
    ) {
        self.handle = handle
        self.confirm = confirm
        self.voice = voice
        self.handsFree = handsFree
        self.wallClock = wallClock
        self.markSeconds = markSeconds
    }

    /// Carries out `gesture` (in `button test`, only confirms and shows it).
    public func perform(_ gesture: ButtonGesture) {
        guard !handsFree.pressed(gesture) else { return confirm(.pressed) }
        switch gesture {
        case .single: whereAmI()
        case .double:
            confirm(.pressed)
            if case .error(let error) = handle(.route(.next)) { return refuse(error.message) }
            voice.say(Presentation.spokenNext(status()))
        case .triple:
            confirm(.pressed)
            if !voice.repeatLast() { voice.say("Nothing was said yet.") }
        case .long:
            let muted = status().isMuted ?? false
            // `mute on` silences the motor, the pattern waiting included: the pause is confirmed
            // after it, the resume before.
            if muted { confirm(.resumed) }
            if case .error(let error) = handle(.mute(!muted)) { return refuse(error.message) }
            if !muted { confirm(.paused) }
            voice.say(Presentation.spokenPause(muted: !muted))
        case .veryLong:
            confirm(.pressed)
            let reply = handle(.place(.mark(name: markName(), seconds: markSeconds, radiusMeters: nil, replacing: false)))
            switch reply {
            case .placeMarked(let report): voice.say(Presentation.spokenMark(report))
            case .error(let error): refuse(error.message)
            default: refuse("the place was not marked")
            }
        }
    }

    /// A single press: said, or without a voice, played as the clock pattern.
    private func whereAmI() {
        // With a voice the tick comes first: the place index may take a while to answer.
        if voice.speaks { confirm(.pressed) }
        let status = status()
        let place: WhereReport? =
            if case .whereAmI(let report) = handle(.whereAmI(latitude: nil, longitude: nil)) { report } else { nil }
        let sentence = Presentation.spokenWhere(place, status: status)
        guard !voice.speaks else { return voice.say(sentence) }
        // Shown all the same: a paired phone's screen reader says it.
        voice.say(sentence)
        guard let meters = status.distanceMeters, let error = status.errorDegrees, status.state != "arrived" else {
            return confirm(.refused)
        }
        confirm(HapticPattern.clock(errorDegrees: error, meters: meters))
    }

    private func status() -> StatusReport {
        if case .status(let report) = handle(.status) { return report }
        return StatusReport(state: "unknown")
    }

    /// The gesture could not be done: the `refused` pattern, and why.
    private func refuse(_ why: String) {
        confirm(.refused)
        voice.say(why.prefix(1).uppercased() + why.dropFirst() + (why.hasSuffix(".") ? "" : "."))
    }

    /// `Mark 14:05:09`: unique enough for a place book, and said as a time.
    private func markName() -> String {
        let seconds = wallClock() % 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "Mark \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}
