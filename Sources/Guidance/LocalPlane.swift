#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A plane tangent to the Earth at `origin`, in metres east and north: good to a few
/// centimetres over the few hundred metres a route's leg or a handful of fixes span, and
/// cheap, where the geodesic is exact but iterative. Used for what is local by nature
/// (a leg's direction, the scatter of fixes, a trail's shape); distances that are reported
/// come from ``Geodesic``.
struct LocalPlane: Sendable {
    /// The mean Earth radius, metres (IUGG).
    static let earthRadiusMeters = 6_371_008.8
    private static let radiansPerDegree = Double.pi / 180

    let origin: Coordinate
    private let metersPerDegreeEast: Double
    private static let metersPerDegreeNorth = radiansPerDegree * earthRadiusMeters

    init(origin: Coordinate) {
        self.origin = origin
        metersPerDegreeEast = Self.radiansPerDegree * cos(origin.latitudeDegrees * Self.radiansPerDegree) * Self.earthRadiusMeters
    }

    /// `point` in metres east and north of the origin.
    func offset(of point: Coordinate) -> (east: Double, north: Double) {
        var longitudeDifference = point.longitudeDegrees - origin.longitudeDegrees
        if longitudeDifference > 180 { longitudeDifference -= 360 }
        if longitudeDifference < -180 { longitudeDifference += 360 }
        return (longitudeDifference * metersPerDegreeEast, (point.latitudeDegrees - origin.latitudeDegrees) * Self.metersPerDegreeNorth)
    }

    /// The point `east` and `north` metres from the origin.
    func coordinate(east: Double, north: Double) -> Coordinate {
        let latitude = min(max(origin.latitudeDegrees + north / Self.metersPerDegreeNorth, -90), 90)
        var longitude = origin.longitudeDegrees + (metersPerDegreeEast > 0 ? east / metersPerDegreeEast : 0)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)
    }
}
