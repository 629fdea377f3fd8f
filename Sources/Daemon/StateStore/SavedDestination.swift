import Geodesy

/// A destination as the daemon keeps it: where, and the name the wearer gave it, if any.
public struct SavedDestination: Sendable, Hashable, CustomStringConvertible {
    /// Two latitudes or longitudes closer than this, in degrees, are the same place (about
    /// 1 cm): what a round trip through text, or `go` typed twice with the digits a phone shows,
    /// may change.
    public static let samePlaceToleranceDegrees = 1e-7

    /// Where it is.
    public var coordinate: Coordinate
    /// The wearer's name for it, e.g. `Eiffel Tower`; nil when none was given.
    public var name: String?

    /// A destination from its parts.
    ///
    /// - Parameters:
    ///   - coordinate: Where it is; checked when it is saved.
    ///   - name: The wearer's name for it, or nil.
    public init(coordinate: Coordinate, name: String? = nil) {
        self.coordinate = coordinate
        self.name = name
    }

    /// Whether `other` is the same destination for the recent list: the same name (or both
    /// unnamed) and each of latitude and longitude within ``samePlaceToleranceDegrees``.
    ///
    /// - Parameter other: The destination to compare with.
    /// - Returns: true when the recent list should hold only one of the two.
    public func isSameDestination(as other: SavedDestination) -> Bool {
        name == other.name
            && abs(coordinate.latitudeDegrees - other.coordinate.latitudeDegrees) <= Self.samePlaceToleranceDegrees
            && abs(coordinate.longitudeDegrees - other.coordinate.longitudeDegrees) <= Self.samePlaceToleranceDegrees
    }

    public var description: String {
        let place = "\(coordinate.latitudeDegrees), \(coordinate.longitudeDegrees)"
        return name.map { "\($0) (\(place))" } ?? place
    }
}
