/// One point of a GPX file (`wpt`, `rtept` or `trkpt`): where, and what the file says of it.
public struct GPXPoint: Sendable, Hashable {
    /// `lat`: degrees, WGS84, −90…90.
    public var latitudeDegrees: Double
    /// `lon`: degrees, WGS84, −180…180.
    public var longitudeDegrees: Double
    /// `ele`: metres (GPX does not say above what; receivers write height above sea level).
    public var elevationMeters: Double?
    /// `time`: ISO 8601 UTC as written, e.g. `2026-05-01T12:00:00Z`.
    public var time: String?
    /// `name`.
    public var name: String?
    /// `sat`: satellites used for the fix.
    public var satellites: Int?
    /// `hdop`: horizontal dilution of precision.
    public var horizontalDilution: Double?

    /// A point from its parts.
    public init(
        latitudeDegrees: Double, longitudeDegrees: Double, elevationMeters: Double? = nil, time: String? = nil,
        name: String? = nil, satellites: Int? = nil, horizontalDilution: Double? = nil
    ) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.time = time
        self.name = name
        self.satellites = satellites
        self.horizontalDilution = horizontalDilution
    }
}
