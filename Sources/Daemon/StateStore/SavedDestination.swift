import Geodesy

/// A destination as the daemon keeps it: where, and the name the wearer gave it, if any.
public struct SavedDestination: Sendable, Hashable, CustomStringConvertible {
    /// Two destinations closer than this, in metres, are one place for the recent list: `go`
    /// typed again with fewer digits, or from a map a few pixels off, is the same spot.
    public static let samePlaceMeters = 5.0

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

    /// Whether `other` is the same place for the recent list: within ``samePlaceMeters`` on
    /// the WGS84 ellipsoid, whatever either is called.
    ///
    /// - Parameter other: The destination to compare with.
    /// - Returns: true when the recent list should hold only one of the two.
    public func isSamePlace(as other: SavedDestination) -> Bool {
        let path = Geodesic.wgs84.inverse(
            latitude1Degrees: coordinate.latitudeDegrees, longitude1Degrees: coordinate.longitudeDegrees,
            latitude2Degrees: other.coordinate.latitudeDegrees, longitude2Degrees: other.coordinate.longitudeDegrees)
        return path.distanceMeters <= Self.samePlaceMeters
    }

    public var description: String {
        let place = "\(coordinate.latitudeDegrees), \(coordinate.longitudeDegrees)"
        return name.map { "\($0) (\(place))" } ?? place
    }
}
