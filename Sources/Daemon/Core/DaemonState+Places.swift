import ControlProtocol
import Geodesy
import Guidance

// Named places (issue 19): kept in `places.json`, matched by name regardless of case, made
// from a coordinate (`place add`) or from where the wearer stands (`place mark`).

extension DaemonState {
    /// `go` with `place`: the place of that name, else the recent destination of it, with a
    /// suggestion when neither matches but one is close.
    public mutating func goPlace(_ name: String, at seconds: Double) -> Outcome<Void> {
        if let place = saved.places.place(named: name) { return go(place, at: seconds) }
        let key = name.lowercased()
        if let recent = saved.recent.first(where: { $0.name?.lowercased() == key }) { return go(recent, at: seconds) }
        let names = saved.places.compactMap(\.name) + saved.recent.compactMap(\.name)
        let hint = PlaceBook.suggestion(for: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        return Outcome(
            effects: [],
            reply: .failure(ControlError(.notFound, "no place or recent destination is called \"\(name)\"\(hint)")))
    }

    /// `place`: add, mark, rename or remove a place (`list` is ``DaemonState/saved``'s
    /// `places`).
    ///
    /// - Returns: For `mark`, where the place was put and how sure that is; nil otherwise.
    public mutating func place(_ action: PlaceAction, at seconds: Double) -> Outcome<PlaceMarkReport?> {
        var places = saved.places
        var report: PlaceMarkReport?
        let message: String
        do throws(PlaceBook.Refusal) {
            switch action {
            case .list:
                return Outcome(effects: [], reply: .success(nil))
            case .add(let point, let replacing):
                let place = SavedDestination(
                    coordinate: Coordinate(uncheckedLatitudeDegrees: point.latitude, longitudeDegrees: point.longitude),
                    name: point.name, arrivalRadiusMeters: point.radiusMeters)
                try places.add(place, replacing: replacing)
                message = "place added"
            case .mark(let name, let span, let radius, let replacing):
                let samples = recentFixes.since(span, before: max(seconds, lastSeconds))
                guard let average = PositionAverage.of(samples) else {
                    return Outcome(
                        effects: [],
                        reply: .failure(
                            ControlError(
                                .refused,
                                "no fix with a position in the last \(DecimalFormat.fixed(span, fractionDigits: span == span.rounded() ? 0 : 1)) s; mark needs to know where you are")))
                }
                let place = SavedDestination(coordinate: average.coordinate, name: name, arrivalRadiusMeters: radius)
                try places.add(place, replacing: replacing)
                report = PlaceMarkReport(
                    place: Self.report(place), errorMeters: (average.errorMeters * 10).rounded() / 10, fixes: samples.count)
                message = "place marked"
            case .rename(let name, let newName):
                try places.rename(name, to: newName)
                message = "place renamed"
            case .remove(let name):
                try places.remove(named: name)
                message = "place removed"
            }
        } catch {
            return Outcome(effects: [], reply: .failure(Self.refusal(error, action: action)))
        }
        saved.places = places
        let effects: [Effect] = [
            .log(.info, message, ["places": "\(places.count)"]),
            .save(
                Save(
                    change: .places(places), failureLog: "cannot save the places",
                    failureReply: "\(message), but the places could not be saved")),
        ]
        return Outcome(effects: effects, reply: .success(report))
    }

    private static func refusal(_ refusal: PlaceBook.Refusal, action: PlaceAction) -> ControlError {
        let name: String =
            switch action {
            case .add(let point, _): point.name ?? ""
            case .mark(let name, _, _, _), .rename(let name, _), .remove(let name): name
            case .list: ""
            }
        switch refusal {
        case .exists(let existing):
            if case .rename(_, let newName) = action {
                return ControlError(.refused, "a place called \"\(existing)\" exists already; pick another name than \"\(newName)\"")
            }
            return ControlError(.refused, "a place called \"\(existing)\" exists already; replace it, or pick another name")
        case .missing:
            return ControlError(.notFound, "no place is called \"\(name)\"")
        case .full:
            return ControlError(.refused, "\(PlaceBook.maximumPlaces) places are kept already; remove one first")
        }
    }
}
