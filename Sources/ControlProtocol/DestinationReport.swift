/// A destination on the wire: `{"lat":…,"lon":…,"name":…}`, in `STATUS` and `RECENT`.
public struct DestinationReport: Sendable, Hashable {
    /// Latitude in degrees, positive north.
    public var latitude: Double
    /// Longitude in degrees, positive east.
    public var longitude: Double
    /// The wearer's name for it; null on the wire when none was given.
    public var name: String?

    /// A destination from its parts.
    public init(latitude: Double, longitude: Double, name: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
    }
}

extension DestinationReport: Encodable {
    enum CodingKeys: String, CodingKey { case latitude = "lat", longitude = "lon", name }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(latitude), forKey: .latitude)
        try container.encode(WireNumber(longitude), forKey: .longitude)
        try container.encode(name, forKey: .name)
    }
}
