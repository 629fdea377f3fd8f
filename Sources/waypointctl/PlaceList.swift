import ClientSupport
import ControlProtocol

/// `waypointctl place list`: one place a line, `Bakery, 48°51'36.0"N 2°17'24.0"E (arrival
/// within 8 m)`, in the order they were made.
enum PlaceList {
    static func lines(for places: [DestinationReport]) -> [String] {
        guard !places.isEmpty else { return ["no places; add one with place add NAME COORDINATE or place mark NAME"] }
        return places.map(Presentation.place)
    }
}
