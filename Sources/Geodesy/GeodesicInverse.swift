/// The solution of the inverse geodesic problem: how to get from one point to another along the
/// shortest path on the ellipsoid.
public struct GeodesicInverse: Sendable, Hashable {
    /// Azimuth of the path at the first point, degrees clockwise from true north in [−180, 180].
    /// This is the bearing to walk.
    public var initialAzimuthDegrees: Double
    /// Azimuth of the path at the second point (the direction of travel on arrival, not the
    /// back azimuth), degrees clockwise from true north in [−180, 180].
    public var finalAzimuthDegrees: Double
    /// Length of the path, metres.
    public var distanceMeters: Double

    /// Creates a solution from its three parts.
    public init(initialAzimuthDegrees: Double, finalAzimuthDegrees: Double, distanceMeters: Double) {
        self.initialAzimuthDegrees = initialAzimuthDegrees
        self.finalAzimuthDegrees = finalAzimuthDegrees
        self.distanceMeters = distanceMeters
    }
}
