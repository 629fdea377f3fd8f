/// A page of the breadcrumb trail: `{"class":"TRACK","points":[…],"next":"0:81234"}`; `next`
/// is null on the last page. Each point:
///
/// ```
/// {"t":1782950400.0,"lat":48.8556,"lon":2.2986,"ele":35.2,"eph":4.0,"hdop":1.1,"sat":9,"seg":true}
/// ```
///
/// `t` is the fix's time in POSIX seconds (UTC); `ele` the altitude above mean sea level,
/// metres (GPX's `ele`); `seg` is true where a new segment starts (after a gap or a lost fix); unknown
/// numbers are null.
public struct TrackReport: Sendable, Hashable {
    /// One point.
    public struct Point: Sendable, Hashable {
        public var seconds: Double
        public var latitude: Double
        public var longitude: Double
        public var elevationMeters: Double?
        public var horizontalErrorMeters: Double?
        public var hdop: Double?
        public var satellites: Int?
        public var startsSegment: Bool

        /// A point from its parts.
        public init(
            seconds: Double, latitude: Double, longitude: Double, elevationMeters: Double? = nil,
            horizontalErrorMeters: Double? = nil, hdop: Double? = nil, satellites: Int? = nil, startsSegment: Bool = false
        ) {
            self.seconds = seconds
            self.latitude = latitude
            self.longitude = longitude
            self.elevationMeters = elevationMeters
            self.horizontalErrorMeters = horizontalErrorMeters
            self.hdop = hdop
            self.satellites = satellites
            self.startsSegment = startsSegment
        }
    }

    /// The points, oldest first.
    public var points: [Point]
    /// The cursor of the next page, or nil on the last.
    public var next: String?

    /// A page from its parts.
    public init(points: [Point], next: String?) {
        self.points = points
        self.next = next
    }
}

extension TrackReport: Codable {
    enum CodingKeys: String, CodingKey { case messageClass = "class", points, next }

    /// Writes the whole `TRACK` message, `"class":"TRACK"` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.track.rawValue, forKey: .messageClass)
        try container.encode(points, forKey: .points)
        try container.encode(next, forKey: .next)
    }

    /// Reads a `TRACK` message; an absent list is empty, an absent `next` the last page.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            points: try container.decodeIfPresent([Point].self, forKey: .points) ?? [],
            next: try container.decodeIfPresent(String.self, forKey: .next))
    }
}

extension TrackReport.Point: Codable {
    enum CodingKeys: String, CodingKey { case t, lat, lon, ele, eph, hdop, sat, seg }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(seconds), forKey: .t)
        try container.encode(WireNumber(latitude), forKey: .lat)
        try container.encode(WireNumber(longitude), forKey: .lon)
        try container.encode(WireNumber(elevationMeters), forKey: .ele)
        try container.encode(WireNumber(horizontalErrorMeters), forKey: .eph)
        try container.encode(WireNumber(hdop), forKey: .hdop)
        try container.encode(satellites, forKey: .sat)
        try container.encode(startsSegment, forKey: .seg)
    }

    /// Reads a point; `t`, `lat` and `lon` are required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seconds: try container.decode(Double.self, forKey: .t), latitude: try container.decode(Double.self, forKey: .lat),
            longitude: try container.decode(Double.self, forKey: .lon),
            elevationMeters: try container.decodeIfPresent(Double.self, forKey: .ele),
            horizontalErrorMeters: try container.decodeIfPresent(Double.self, forKey: .eph),
            hdop: try container.decodeIfPresent(Double.self, forKey: .hdop),
            satellites: try container.decodeIfPresent(Int.self, forKey: .sat),
            startsSegment: try container.decodeIfPresent(Bool.self, forKey: .seg) ?? false)
    }
}
