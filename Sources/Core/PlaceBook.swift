import CommandLineSupport
import Places
/// The wearer's named places (`place add`, `place mark`): each a ``SavedDestination`` with a
/// name, unique regardless of case, in the order they were made. Pure.
public struct PlaceBook: Sendable, Hashable, RandomAccessCollection {
    /// The most places kept: hundreds, as a walker's town needs, and few enough that the
    /// `PLACES` reply (one line) and `places.json` stay small.
    public static let maximumPlaces = 500
    /// A near miss this many edits away (or fewer) is offered as a suggestion.
    static let suggestionEdits = 2

    private var places: [SavedDestination]

    /// A book of places: those without a name, and later ones whose name repeats an earlier
    /// one's, are dropped, as are any past ``maximumPlaces``.
    public init(_ places: [SavedDestination] = []) {
        self.places = []
        for place in places where place.name != nil && self.places.count < Self.maximumPlaces {
            if index(named: place.name!) == nil { self.places.append(place) }
        }
    }

    public var startIndex: Int { places.startIndex }
    public var endIndex: Int { places.endIndex }
    public subscript(position: Int) -> SavedDestination { places[position] }

    /// Where the place called `name` is (case and accents aside), if there is one.
    public func index(named name: String) -> Int? {
        // Folded as the map's search folds (issue 40: "cafe creme" is the place "Café Crème").
        let key = TextFolding.folded(name)
        return places.firstIndex { $0.name.map(TextFolding.folded) == key }
    }

    /// The place called `name` (case and accents aside), if there is one.
    public func place(named name: String) -> SavedDestination? { index(named: name).map { places[$0] } }

    /// Why a change was refused.
    public enum Refusal: Error, Sendable, Hashable {
        /// A place already has this name (as it is spelt there).
        case exists(String)
        /// No place has this name.
        case missing
        /// ``maximumPlaces`` places are kept already.
        case full
    }

    /// Adds a named place, or replaces the one with its name when `replacing`.
    public mutating func add(_ place: SavedDestination, replacing: Bool = false) throws(Refusal) {
        guard let name = place.name else { throw .missing }
        if let existing = index(named: name) {
            guard replacing else { throw .exists(places[existing].name ?? name) }
            places[existing] = place
            return
        }
        guard places.count < Self.maximumPlaces else { throw .full }
        places.append(place)
    }

    /// Renames a place; the new name may differ from the old only in case.
    public mutating func rename(_ name: String, to newName: String) throws(Refusal) {
        guard let position = index(named: name) else { throw .missing }
        if let other = index(named: newName), other != position { throw .exists(places[other].name ?? newName) }
        places[position].name = newName
    }

    /// Removes a place.
    /// - Returns: The place removed.
    @discardableResult
    public mutating func remove(named name: String) throws(Refusal) -> SavedDestination {
        guard let position = index(named: name) else { throw .missing }
        return places.remove(at: position)
    }

    /// The name closest to `name` among `candidates` (case-insensitive), when it is a near miss:
    /// at most ``suggestionEdits`` edits away, or the only name that starts with it.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        let key = name.lowercased()
        var best: (name: String, edits: Int)?
        for candidate in candidates {
            let edits = EditDistance.between(key, candidate.lowercased(), limit: suggestionEdits)
            if edits <= suggestionEdits, edits < (best?.edits ?? .max) { best = (candidate, edits) }
        }
        if let best { return best.name }
        let starting = candidates.filter { $0.lowercased().hasPrefix(name.lowercased()) }
        return starting.count == 1 ? starting[0] : nil
    }
}
