/// A geodetic position on WGS84 converted to the geocentric spherical coordinates in which the
/// spherical-harmonic model is evaluated (WMM technical report, "geodetic to spherical").
///
/// Only sines and cosines are kept: the synthesis needs nothing else, and taking them straight
/// from the Cartesian coordinates keeps a pole exact (cos φ′ = 0) instead of going through an
/// `asin` that would reintroduce rounding.
struct GeocentricSphericalPosition: Sendable {
    /// WGS84 semi-major axis, kilometres.
    static let semiMajorAxisKilometers = 6378.137
    /// WGS84 flattening.
    static let flattening = 1.0 / 298.257223563
    /// WGS84 first eccentricity squared, e² = f(2 − f).
    static let eccentricitySquared = flattening * (2.0 - flattening)

    /// Distance from the Earth's centre, kilometres.
    let radiusKilometers: Double
    /// Sine of the geocentric latitude φ′.
    let sinLatitude: Double
    /// Cosine of the geocentric latitude φ′; exactly zero at a pole.
    let cosLatitude: Double
    /// Sine of the longitude λ (the same in both frames).
    let sinLongitude: Double
    /// Cosine of the longitude λ.
    let cosLongitude: Double
    /// Sine of φ′ − φ, the angle that rotates geocentric field components into the geodetic
    /// (local horizontal) frame.
    let sinLatitudeDifference: Double
    /// Cosine of φ′ − φ.
    let cosLatitudeDifference: Double

    /// Converts a geodetic position to geocentric spherical coordinates.
    ///
    /// - Parameters:
    ///   - latitudeDegrees: Geodetic latitude, degrees, already limited to [−90, 90].
    ///   - longitudeDegrees: Longitude, degrees, any value.
    ///   - heightAboveEllipsoidKilometers: Height above the WGS84 ellipsoid, kilometres.
    init(
        latitudeDegrees: Double, longitudeDegrees: Double, heightAboveEllipsoidKilometers: Double
    ) {
        let latitude = DegreeTrigonometry.sinCos(degrees: latitudeDegrees)
        let longitude = DegreeTrigonometry.sinCos(degrees: longitudeDegrees)
        let height = heightAboveEllipsoidKilometers
        let e2 = Self.eccentricitySquared
        // Radius of curvature in the prime vertical.
        let primeVerticalRadius =
            Self.semiMajorAxisKilometers / (1.0 - e2 * latitude.sin * latitude.sin).squareRoot()
        // Distance from the rotation axis and height above the equatorial plane.
        let axial = (primeVerticalRadius + height) * latitude.cos
        let polar = (primeVerticalRadius * (1.0 - e2) + height) * latitude.sin
        let radius = (axial * axial + polar * polar).squareRoot()
        radiusKilometers = radius
        sinLatitude = polar / radius
        cosLatitude = axial / radius
        sinLongitude = longitude.sin
        cosLongitude = longitude.cos
        sinLatitudeDifference = sinLatitude * latitude.cos - cosLatitude * latitude.sin
        cosLatitudeDifference = cosLatitude * latitude.cos + sinLatitude * latitude.sin
    }
}
