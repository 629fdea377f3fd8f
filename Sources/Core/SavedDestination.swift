import ControlProtocol
import Geodesy

/// A destination as the daemon keeps it: where, the name the wearer gave it, if any, and its
/// own arrival radius, if it has one. Places and a route's waypoints are kept the same way.
public struct SavedDestination: Sendable, Hashable, CustomStringConvertible {
    /// Two destinations closer than this, in metres, are one place for the recent list: `go`
    /// typed again with fewer digits, or from a map a few pixels off, is the same spot.
    public static let samePlaceMeters = 5.0
    /// The arrival radii a destination may have, metres: the protocol's.
    public static let arrivalRadiusRangeMeters = ControlRequest.arrivalRadiusRangeMeters

    /// Where it is.
    public var coordinate: Coordinate
    /// The wearer's name for it, e.g. `Eiffel Tower`; nil when none was given.
    public var name: String?
    /// Its own arrival radius, metres, within ``arrivalRadiusRangeMeters``; nil for the
    /// configured one.
    public var arrivalRadiusMeters: Double?

    /// A destination from its parts.
    ///
    /// - Parameters:
    ///   - coordinate: Where it is; checked when it is saved.
    ///   - name: The wearer's name for it, or nil.
    ///   - arrivalRadiusMeters: Its own arrival radius, or nil.
    public init(coordinate: Coordinate, name: String? = nil, arrivalRadiusMeters: Double? = nil) {
        self.coordinate = coordinate
        self.name = name
        self.arrivalRadiusMeters = arrivalRadiusMeters
    }

    /// Whether `other` is the same place for the recent list: within ``samePlaceMeters`` on
    /// the WGS84 ellipsoid, whatever either is called.
    ///
    /// - Parameter other: The destination to compare with.
    /// - Returns: true when the recent list should hold only one of the two.
    public func isSamePlace(as other: SavedDestination) -> Bool {
        Geodesic.wgs84.inverse(from: coordinate, to: other.coordinate).distanceMeters <= Self.samePlaceMeters
    }

    public var description: String {
        let place = "\(coordinate.latitudeDegrees), \(coordinate.longitudeDegrees)"
        return name.map { "\($0) (\(place))" } ?? place
    }
}
