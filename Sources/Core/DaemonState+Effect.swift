import ControlProtocol
import Geodesy
import Guidance

extension DaemonState {
    /// What to do, in order.
    public enum Effect: Sendable, Equatable {
        /// Drive the motor with this cue from now on (nil: silent).
        case cue(HapticCue?)
        /// Play a pattern ahead of the cue.
        case play(HapticPattern)
        /// Stop the pattern playing and drop the one waiting.
        case silence
        /// Write a state file from ``DaemonState/persistent`` as it is after the event.
        case save(StateFile)
        /// Append these trail points (``TrailLog/Append``); the outcome comes back as
        /// ``DaemonState/trailWritten(_:_:)``.
        case appendTrail(TrailLog.Append)
        /// Remove the trail's files (`track clear`); the trail in memory is already empty.
        case clearTrail(generation: Int)
        /// Log a line.
        case log(LogLevel, String, [String: String])
        /// Record an event with what the pipeline concluded from it.
        case record(RecordingEvent)
        /// Tell the world the destination changed (the sampling thread speeds up; a simulated
        /// walker heads for it).
        case destinationChanged(Coordinate?)
        /// A calibration started (true) or ended (false).
        case calibratingChanged(Bool)
        /// Plan the walk again from `from` (the wearer strayed); the plan, or why there is
        /// none, comes back as ``DaemonState/walkPlanned(_:to:at:)``.
        case planWalk(from: Coordinate, to: Coordinate, profile: String)

        /// The navigator's action as an effect.
        init(_ action: Navigator.Action) {
            switch action {
            case .cue(let cue): self = .cue(cue)
            case .play(let pattern): self = .play(pattern)
            }
        }
    }

    /// How loud a log line is; the executor maps it to its logger's levels.
    public enum LogLevel: Sendable, Equatable {
        case info, notice, warning, error
    }

    /// What a request asks to be told back, built into a reply from the state after the
    /// request's effects (``DaemonCore``): the pure state holds no wire types.
    public enum Answer: Sendable, Equatable {
        /// `OK`.
        case ok
        /// `STATUS`.
        case status
        /// `RECENT`.
        case recent
        /// `PLACES`.
        case places
        /// `ROUTE`: where the route stands now.
        case route
        /// `CALIBRATION`: where calibration stands, with a note on what happened.
        case calibration(CalibrationNote?)
        /// `PLACE`: where `place mark` put the place, how sure that is, from how many fixes.
        case placeMarked(SavedDestination, errorMeters: Double, fixes: Int)
        /// `TRACK`: a page of the trail.
        case trackPage(TrailLog.Page)
    }

    /// What happened to a calibration, for the `CALIBRATION` reply's message.
    public enum CalibrationNote: Sendable, Equatable {
        case started, alreadyCollecting, cancelled, stored, reset
    }

    /// A request's outcome: its effects, and its answer if every save succeeds.
    public struct Outcome: Sendable {
        /// What to do, in order.
        public var effects: [Effect]
        /// The answer, or why the request was refused.
        public var reply: Result<Answer, Refusal>
        /// What was done, for the reply when a save fails: "`done`, but `file` could not be
        /// saved".
        public var done: String

        /// An outcome from its parts.
        public init(effects: [Effect] = [], reply: Result<Answer, Refusal>, done: String = "done") {
            self.effects = effects
            self.reply = reply
            self.done = done
        }

        /// A refusal: nothing done.
        static func refused(_ refusal: Refusal) -> Outcome { Outcome(reply: .failure(refusal)) }

        /// An answer with no effects.
        static func answer(_ answer: Answer) -> Outcome { Outcome(reply: .success(answer)) }
    }
}
