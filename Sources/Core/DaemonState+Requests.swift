import ControlProtocol
import Geodesy
import Guidance

// The one place a request is dispatched (gpsd's `handle_request`, chrony's `cmdmon.c`): each
// `ControlRequest` case goes to the transition that carries it out. `watch` never comes here:
// the control server runs a client's watch itself, asking for `status`.

extension DaemonState {
    /// What a request may need besides the state: the time, and what only the executor can
    /// read.
    public struct RequestContext: Sendable {
        /// Seconds since start, monotonic.
        public var seconds: Double
        /// The wall-clock time, POSIX seconds: a calibration's `created` date.
        public var utcSeconds: Int64
        /// Whether the player is playing (or holds) a pattern: `buzz` waits for it.
        public var isPatternPlaying: Bool
        /// The trail's files as they are now, oldest first (both files, each line a point):
        /// what `track export` and `back` read besides the points waiting in memory (empty for
        /// other requests). Nil when the daemon keeps no trail.
        public var storedTrail: [UInt8]?

        /// A context from its parts.
        public init(seconds: Double, utcSeconds: Int64 = 0, isPatternPlaying: Bool = false, storedTrail: [UInt8]? = []) {
            self.seconds = seconds
            self.utcSeconds = utcSeconds
            self.isPatternPlaying = isPatternPlaying
            self.storedTrail = storedTrail
        }
    }

    /// Whether a request reads the trail's files (``RequestContext/storedTrail``).
    public static func readsTrail(_ request: ControlRequest) -> Bool {
        switch request {
        case .track(.export), .back: true
        default: false
        }
    }

    /// Carries out one request (any but `watch`).
    ///
    /// - Returns: The effects to perform, then the answer to build (or the refusal).
    public mutating func handle(_ request: ControlRequest, _ context: RequestContext) -> Outcome {
        let outcome = dispatch(request, context)
        switch (request, outcome.reply) {
        case (.go, .success), (.goRecent, .success), (.goPlace, .success), (.route(.load), .success):
            markGuidanceStart(utcSeconds: context.utcSeconds)
        default:
            break
        }
        return outcome
    }

    private mutating func dispatch(_ request: ControlRequest, _ context: RequestContext) -> Outcome {
        let seconds = context.seconds
        switch request {
        // A walk (`walk`) is planned by DaemonCore, which starts it with `startWalk`.
        case .go(let latitude, let longitude, let name, _):
            let coordinate = Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)
            return go(SavedDestination(coordinate: coordinate, name: name), at: seconds)
        case .goRecent(let index): return goRecent(index, at: seconds)
        case .goPlace(let name): return goPlace(name, at: seconds)
        case .clear: return clear(at: seconds)
        case .status: return .answer(.status)
        case .recent: return .answer(.recent)
        case .removeRecent(let index):
            guard index >= 1, index <= recent.count else { return .refused(.fewRecent(count: recent.count)) }
            recent = RecentDestinations(recent.enumerated().filter { $0.offset != index - 1 }.map(\.element))
            return Outcome(effects: [.log(.info, "recent destination removed", [:]), .save(.recent)], reply: .success(.ok), done: "removed")
        case .removeRecentPlace(let latitude, let longitude):
            let place = SavedDestination(coordinate: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude), name: nil)
            guard recent.contains(where: { $0.isSamePlace(as: place) }) else { return .refused(.notRecent) }
            recent = RecentDestinations(recent.filter { !$0.isSamePlace(as: place) })
            return Outcome(effects: [.log(.info, "recent destination removed", [:]), .save(.recent)], reply: .success(.ok), done: "removed")
        case .mute(let on): return mute(on, at: seconds)
        case .buzz(let pattern): return buzz(pattern, patternPlaying: context.isPatternPlaying)
        case .calibrate(let action): return calibrate(action, at: seconds, utcSeconds: context.utcSeconds)
        case .route(let action): return route(action, at: seconds)
        case .place(.list): return .answer(.places)
        case .place(let action): return place(action, at: seconds)
        case .track(let action): return track(action, storedTrail: context.storedTrail)
        case .back(let minutes): return back(minutes: minutes, storedTrail: context.storedTrail, at: seconds)
        case .watch: return .answer(.ok)
        // The map is no part of the state: DaemonCore asks the place index before this.
        case .search, .whereAmI: return .answer(.ok)
        // The button is no part of the state either: DaemonCore hands this to its reader.
        case .buttonTest: return .answer(.ok)
        }
    }

    /// `go` to a destination with its own radius, perhaps: a coordinate, a recent one, a place.
    /// A route being walked is dropped: the wearer chose somewhere else.
    mutating func go(_ destination: SavedDestination, at seconds: Double) -> Outcome {
        let droppedRoute = target.route != nil
        target = .destination(destination)
        recent.record(SavedDestination(coordinate: destination.coordinate, name: destination.name))
        var effects: [Effect] = []
        if droppedRoute { effects.append(.log(.info, "route dropped", [:])) }
        effects += guide(to: destination, announcing: .destinationAccepted, at: seconds)
        effects.append(.log(.info, "destination set", ["destination": destination.description]))
        effects += [.save(.target), .save(.recent)]
        return Outcome(effects: effects, reply: .success(.ok), done: "guiding")
    }

    /// `go` with `recent`: guide to the `index`th recent destination, from 1.
    mutating func goRecent(_ index: Int, at seconds: Double) -> Outcome {
        guard index >= 1, index <= recent.count else { return .refused(.fewRecent(count: recent.count)) }
        return go(recent[recent.startIndex + index - 1], at: seconds)
    }

    /// `clear`: no destination, no route; whatever buzzes for the old one stops.
    mutating func clear(at seconds: Double) -> Outcome {
        let droppedRoute = target.route != nil
        target = .none
        var effects: [Effect] = []
        if droppedRoute { effects.append(.log(.info, "route dropped", [:])) }
        effects += guide(to: nil, announcing: .destinationAccepted, at: seconds)
        effects += [.silence, .save(.target)]
        return Outcome(effects: effects, reply: .success(.ok), done: "cleared")
    }

    /// `mute`: the wearer's mute, which stays across restarts.
    mutating func mute(_ on: Bool, at seconds: Double) -> Outcome {
        isMuted = on
        var effects = applyMute(at: seconds)
        if on { effects.append(.silence) }
        effects += [.log(.info, on ? "muted" : "unmuted", [:]), .save(.mute)]
        return Outcome(effects: effects, reply: .success(.ok), done: on ? "muted" : "unmuted")
    }

    /// `buzz`: one pattern, refused while another plays so that a stream of them cannot keep
    /// the motor going.
    func buzz(_ pattern: BuzzPattern, patternPlaying: Bool) -> Outcome {
        guard let haptic = HapticPattern(rawValue: pattern.rawValue) else { return .refused(.patternNotRendered(pattern.rawValue)) }
        guard !patternPlaying else { return .refused(.patternPlaying) }
        return Outcome(effects: [.play(haptic)], reply: .success(.ok))
    }
}
