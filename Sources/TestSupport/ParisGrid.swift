import Geodesy

/// Places near the Eiffel Tower by metres east and north, and fixes there: the ground the core's
/// tests (CoreTests) and its executor's (DaemonTests) walk on.
public enum ParisGrid {
    /// The origin: the Eiffel Tower.
    public static let origin = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
    /// Metres in a degree of latitude here, and of longitude (roughly: tests measure with geodesics).
    public static let metersPerDegreeNorth = 111_200.0
    public static let metersPerDegreeEast = 73_200.0

    /// `east` and `north` metres from the origin, roughly.
    public static func point(_ east: Double, _ north: Double) -> Coordinate {
        Coordinate(
            uncheckedLatitudeDegrees: origin.latitudeDegrees + north / metersPerDegreeNorth,
            longitudeDegrees: origin.longitudeDegrees + east / metersPerDegreeEast)
    }

    /// A 3D fix at `coordinate`, `errorMeters` horizontal error, 35 m above sea level, at a
    /// fixed time (2026-07-02).
    public static func fix(_ coordinate: Coordinate = origin, errorMeters: Double = 5) -> Fix {
        var fix = Fix(mode: .threeDimensional, time: UTCTime(seconds: 1_782_950_400), coordinate: coordinate)
        fix.horizontalErrorMeters = errorMeters
        fix.altitudeMSLMeters = 35
        return fix
    }
}
