import Heading

extension DaemonState {
    /// Why a request was refused: a value naming what was wrong, put in words for the wire by
    /// ``ControlError/init(_:)``.
    public enum Refusal: Error, Sendable, Equatable {
        /// `go --recent N` past the end of a list of `count`.
        case fewRecent(count: Int)
        /// `recent remove` at a place no recent destination is at.
        case notRecent
        /// A `buzz` pattern the player cannot render (a protocol newer than the daemon).
        case patternNotRendered(String)
        /// A `buzz` while another pattern plays: a stream of them must not keep the motor going.
        case patternPlaying
        /// `calibrate finish` or `cancel` with none running.
        case notCalibrating
        /// `calibrate finish` before a fix with a date: the field strength to scale to comes from
        /// WMM2025 at the wearer's position.
        case noDatedFix
        /// `calibrate finish` whose samples do not make a good fit.
        case fitRefused(CalibrationFit.Refusal)
        /// A `route` step with no route loaded.
        case noRoute
        /// `route next` at the last waypoint (`atLast`), or `route previous` at the first.
        case routeEnd(atLast: Bool)
        /// `route next` once the last waypoint is reached.
        case routeFinished
        /// `go NAME` with no place or recent destination of that name.
        case unknownPlace(String, suggestion: String?)
        /// A place of this name (as spelt there) exists; `renamingTo` for `place rename`.
        case placeExists(String, renamingTo: String?)
        /// No place has this name.
        case placeMissing(String)
        /// ``PlaceBook/maximumPlaces`` places are kept already.
        case placesFull
        /// `place mark` with no fix with a position in the last `seconds`.
        case noFixToMark(seconds: Double)
        /// `place mark` whose fixes moved `meters` in the `seconds` averaged, more than their
        /// error: the wearer walked.
        case movedWhileMarking(meters: Double, seconds: Double, fixErrorMeters: Double)
        /// `track` or `back` from a daemon that keeps no trail.
        case noTrailKept
        /// A `track export` cursor that is not one this daemon made.
        case badCursor
        /// The trail rotated or was cleared since the cursor was made.
        case trailRotated
        /// `back` with no trail since the daemon started (`minutes` nil) or in the last
        /// `minutes`.
        case noTrail(minutes: Double?)
        /// `back` with no trail since guidance last started.
        case noTrailSinceGuidance
    }
}
