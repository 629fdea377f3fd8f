import ControlProtocol
import Core
import Geodesy

extension ControlError {
    /// A refusal of the core as the wire carries it: its code, and a sentence saying what was
    /// wrong and what to do.
    public init(_ refusal: DaemonState.Refusal) {
        switch refusal {
        case .fewRecent(let count):
            self.init(.notFound, "there \(count == 1 ? "is" : "are") only \(count) recent destination\(count == 1 ? "" : "s")")
        case .notRecent:
            self.init(.notFound, "no recent destination is at that place; it may have been removed already")
        case .patternNotRendered(let name):
            self.init(.internal, "pattern \(name) has no rendering")
        case .patternPlaying:
            self.init(.refused, "a pattern is playing; buzz again when it has ended")
        case .notCalibrating:
            self.init(.refused, "no calibration is running; start one first")
        case .noDatedFix:
            self.init(
                .refused,
                "no GPS fix with a date yet: the field strength to scale to comes from WMM2025 at your position; still collecting")
        case .fitRefused(let reason):
            self.init(.refused, "\(reason); still collecting")
        case .noRoute:
            self.init(.refused, "no route is loaded; load one with route load")
        case .routeEnd(let atLast):
            self.init(.refused, atLast ? "already at the last waypoint" : "already at the first waypoint")
        case .routeFinished:
            self.init(.refused, "the route is finished; load another or reverse it")
        case .unknownPlace(let name, let suggestion):
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            self.init(.notFound, "no place or recent destination is called \"\(name)\"\(hint)")
        case .placeExists(let existing, let newName?):
            self.init(.refused, "a place called \"\(existing)\" exists already; pick another name than \"\(newName)\"")
        case .placeExists(let existing, nil):
            self.init(.refused, "a place called \"\(existing)\" exists already; replace it (place add --replace, or \"replace\":true), or pick another name")
        case .placeMissing(let name):
            self.init(.notFound, "no place is called \"\(name)\"")
        case .placesFull:
            self.init(.refused, "\(PlaceBook.maximumPlaces) places are kept already; remove one first")
        case .noFixToMark(let seconds):
            let span = DecimalFormat.short(seconds, maximumFractionDigits: 1)
            self.init(.refused, "no fix with a position in the last \(span) s; mark needs to know where you are")
        case .movedWhileMarking(let meters, let seconds, let fixError):
            self.init(
                .refused,
                "the fixes moved \(DecimalFormat.fixed(meters, fractionDigits: 0)) m in the "
                    + "\(DecimalFormat.short(seconds, maximumFractionDigits: 1)) s averaged, more than their "
                    + "\(DecimalFormat.fixed(fixError, fractionDigits: 1)) m error: stand still and mark again")
        case .noTrailKept:
            self.init(.refused, "this daemon keeps no trail")
        case .badCursor:
            self.init(.badArgument, "cursor must be the previous page's next")
        case .trailRotated:
            self.init(.refused, "the trail was rotated or cleared during the export; export again")
        case .noTrail(nil):
            self.init(.refused, "no trail since the daemon started: it keeps one while it has a fix; try back --minutes N")
        case .noTrailSinceGuidance:
            self.init(
                .refused,
                "no trail since guidance last started: it keeps one while it has a fix; try back --minutes N for an older one")
        case .noTrail(let minutes?):
            self.init(.refused, "no trail in the last \(DecimalFormat.fixed(minutes, fractionDigits: 0)) minutes")
        }
    }
}
