import ControlProtocol
import Geodesy
import Guidance

// Named places (issue 19): kept in `places.json`, matched by name regardless of case, made
// from a coordinate (`place add`) or from where the wearer stands (`place mark`).

extension DaemonState {
    /// `go` with `place`: the place of that name, else the recent destination of it, with a
    /// suggestion when neither matches but one is close.
    mutating func goPlace(_ name: String, at seconds: Double) -> Outcome {
        if let place = places.place(named: name) { return go(place, at: seconds) }
        let key = name.lowercased()
        if let match = recent.first(where: { $0.name?.lowercased() == key }) { return go(match, at: seconds) }
        let names = places.compactMap(\.name) + recent.compactMap(\.name)
        return .refused(.unknownPlace(name, suggestion: PlaceBook.suggestion(for: name, among: names)))
    }

    /// `place`: add, mark, rename or remove a place (`list` is answered from ``places``).
    mutating func place(_ action: PlaceAction, at seconds: Double) -> Outcome {
        var book = places
        var answer = Answer.ok
        let message: String
        do throws(PlaceBook.Refusal) {
            switch action {
            case .list:
                return .answer(.places)
            case .add(let point, let replacing):
                let place = SavedDestination(
                    coordinate: Coordinate(uncheckedLatitudeDegrees: point.latitude, longitudeDegrees: point.longitude),
                    name: point.name, arrivalRadiusMeters: point.radiusMeters)
                try book.add(place, replacing: replacing)
                message = "place added"
            case .mark(let name, let span, let radius, let replacing):
                let samples = recentFixes.since(span, before: max(seconds, lastSeconds))
                guard let average = PositionAverage.of(samples) else { return .refused(.noFixToMark(seconds: span)) }
                // Averaging assumes the wearer stands still; fixes that moved farther than
                // their own error are a walk, and its middle is no place.
                guard average.movedMeters <= average.fixErrorMeters else {
                    return .refused(.movedWhileMarking(meters: average.movedMeters, seconds: span, fixErrorMeters: average.fixErrorMeters))
                }
                let place = SavedDestination(coordinate: average.coordinate, name: name, arrivalRadiusMeters: radius)
                try book.add(place, replacing: replacing)
                answer = .placeMarked(place, errorMeters: average.errorMeters, fixes: samples.count)
                message = "place marked"
            case .rename(let name, let newName):
                try book.rename(name, to: newName)
                message = "place renamed"
            case .remove(let name):
                try book.remove(named: name)
                message = "place removed"
            }
        } catch {
            return .refused(Self.refusal(error, action: action))
        }
        places = book
        return Outcome(
            effects: [.log(.info, message, ["places": "\(book.count)"]), .save(.places)], reply: .success(answer), done: message)
    }

    private static func refusal(_ refusal: PlaceBook.Refusal, action: PlaceAction) -> Refusal {
        switch refusal {
        case .exists(let existing):
            if case .rename(_, let newName) = action { return .placeExists(existing, renamingTo: newName) }
            return .placeExists(existing, renamingTo: nil)
        case .missing:
            switch action {
            case .add(let point, _): return .placeMissing(point.name ?? "")
            case .mark(let name, _, _, _), .rename(let name, _), .remove(let name): return .placeMissing(name)
            case .list: return .placeMissing("")
            }
        case .full:
            return .placesFull
        }
    }
}
