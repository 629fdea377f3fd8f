/// A destination on the wire: `{"lat":…,"lon":…,"name":…}`, in `STATUS`, `RECENT`, `PLACES`
/// and `ROUTE`, with `"radius":…` (metres) when it has its own arrival radius.
public struct DestinationReport: Sendable, Hashable {
    /// Latitude in degrees, positive north.
    public var latitude: Double
    /// Longitude in degrees, positive east.
    public var longitude: Double
    /// The wearer's name for it; null on the wire when none was given.
    public var name: String?
    /// Its own arrival radius, metres; absent on the wire when it has none.
    public var radiusMeters: Double?

    /// A destination from its parts.
    public init(latitude: Double, longitude: Double, name: String? = nil, radiusMeters: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.radiusMeters = radiusMeters
    }
}

extension DestinationReport: Encodable {
    enum CodingKeys: String, CodingKey { case latitude = "lat", longitude = "lon", name, radius }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(latitude), forKey: .latitude)
        try container.encode(WireNumber(longitude), forKey: .longitude)
        try container.encode(name, forKey: .name)
        if let radiusMeters { try container.encode(WireNumber(radiusMeters), forKey: .radius) }
    }
}
