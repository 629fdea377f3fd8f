/// The most recent destinations, newest first, at most ``capacity``, each at most once.
///
/// The rules live here, in a value, so that the control server, the state file and the tests
/// share them: ``record(_:)`` puts a destination at the front, and one that is already in the
/// list (the same place, whatever its name: see ``SavedDestination/isSamePlace(as:)``) moves
/// to the front instead of appearing twice, with the newest name it was given.
public struct RecentDestinations: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// How many destinations the list keeps (DESIGN.md §1).
    public static let capacity = 5

    /// The destinations, newest first.
    public private(set) var destinations: [SavedDestination]

    /// An empty list.
    public init() { destinations = [] }

    /// A list from destinations given newest first, keeping the rules: a later duplicate of an
    /// earlier entry is dropped, and only the first ``capacity`` survive.
    ///
    /// - Parameter newestFirst: Destinations, newest first, e.g. as read from the state file.
    public init(_ newestFirst: some Sequence<SavedDestination>) {
        destinations = []
        for destination in newestFirst where !destinations.contains(where: { $0.isSamePlace(as: destination) }) {
            guard destinations.count < Self.capacity else { break }
            destinations.append(destination)
        }
    }

    /// Puts `destination` at the front: an entry for the same place is removed first (its name
    /// kept when `destination` has none), and the oldest entry drops off a full list.
    ///
    /// - Parameter destination: The destination just chosen.
    public mutating func record(_ destination: SavedDestination) {
        var newest = destination
        if let index = destinations.firstIndex(where: { $0.isSamePlace(as: destination) }) {
            newest.name = destination.name ?? destinations[index].name
        }
        destinations.removeAll { $0.isSamePlace(as: destination) }
        destinations.insert(newest, at: 0)
        if destinations.count > Self.capacity { destinations.removeLast(destinations.count - Self.capacity) }
    }

    public var startIndex: Int { destinations.startIndex }
    public var endIndex: Int { destinations.endIndex }
    public subscript(position: Int) -> SavedDestination { destinations[position] }

    public var description: String { destinations.description }
}
