import ClientSupport
import ControlProtocol

/// `waypointctl recent`: the recent destinations numbered as `go --recent N` takes them.
enum RecentList {
    /// One line per destination, `1: Eiffel Tower, 48°51'30.2"N 2°17'40.2"E`, most recent first.
    /// - Parameter destinations: The `RECENT` reply's list, most recent first.
    /// - Returns: The lines to print; one sentence when the list is empty.
    static func lines(for destinations: [DestinationReport]) -> [String] {
        guard !destinations.isEmpty else { return ["no recent destinations"] }
        return destinations.enumerated().map { index, destination in
            "\(index + 1): "
                + Presentation.place(
                    latitudeDegrees: destination.latitude, longitudeDegrees: destination.longitude,
                    name: destination.name)
        }
    }
}
