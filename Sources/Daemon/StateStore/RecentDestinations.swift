/// The most recent destinations, newest first, at most ``capacity``, each at most once.
///
/// The rules live here, in a value, so that the control server, the state file and the tests
/// share them: ``record(_:)`` puts a destination at the front, and one that is already in the
/// list (the same place and name, see ``SavedDestination/isSameDestination(as:)``) moves to the
/// front instead of appearing twice.
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
        for destination in newestFirst where !destinations.contains(where: { $0.isSameDestination(as: destination) }) {
            guard destinations.count < Self.capacity else { break }
            destinations.append(destination)
        }
    }

    /// Puts `destination` at the front: a matching entry is removed first, and the oldest entry
    /// drops off a full list.
    ///
    /// - Parameter destination: The destination just chosen.
    public mutating func record(_ destination: SavedDestination) {
        destinations.removeAll { $0.isSameDestination(as: destination) }
        destinations.insert(destination, at: 0)
        if destinations.count > Self.capacity { destinations.removeLast(destinations.count - Self.capacity) }
    }

    public var startIndex: Int { destinations.startIndex }
    public var endIndex: Int { destinations.endIndex }
    public subscript(position: Int) -> SavedDestination { destinations[position] }

    public var description: String { destinations.description }
}
