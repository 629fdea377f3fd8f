/// One position report from a GNSS receiver, as gpsd gives it: what is unknown is nil.
public struct Fix: Sendable, Hashable {
    /// How much of a position the receiver has.
    public enum Mode: Int, Sendable, Hashable {
        /// No position: `coordinate` and everything derived from it are nil.
        case noFix = 1
        /// Latitude and longitude, no altitude.
        case twoDimensional = 2
        /// Latitude, longitude and altitude.
        case threeDimensional = 3
    }

    /// gpsd's fix status, an adjective to `mode` (gpsd_json(5)); `unknown` covers a plain GPS
    /// fix too, because gpsd leaves 0 and 1 out of its reports.
    public enum Status: Int, Sendable, Hashable {
        case unknown = 0, gps, differential, rtkFixed, rtkFloat, deadReckoning, gnssDeadReckoning,
            timeOnly, simulated, precise
    }

    /// The kind of fix.
    public var mode: Mode
    /// When the receiver took the fix; nil until the receiver has reported a date.
    public var time: UTCTime?
    /// Where; nil without a fix.
    public var coordinate: Coordinate?
    /// Height above the WGS84 ellipsoid, metres (what the magnetic model wants).
    public var altitudeHAEMeters: Double?
    /// Height above mean sea level, metres.
    public var altitudeMSLMeters: Double?
    /// Speed over ground reported by the receiver, m/s.
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees clockwise from true north.
    public var trackDegrees: Double?
    /// Estimated horizontal position error, metres (gpsd's `eph`).
    public var horizontalErrorMeters: Double?
    /// Estimated course error, degrees (gpsd's `epd`).
    public var trackErrorDegrees: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// DGPS, RTK and the like.
    public var status: Status

    /// A report with every optional field unknown.
    public init(mode: Mode, time: UTCTime? = nil, coordinate: Coordinate? = nil, status: Status = .unknown) {
        self.mode = mode
        self.time = time
        self.coordinate = coordinate
        self.status = status
    }

    /// Whether the report carries a position.
    public var hasPosition: Bool { mode != .noFix && coordinate != nil }
}
