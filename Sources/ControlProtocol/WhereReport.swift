/// The reply to `where`: the nearest address within about 40 m, else the nearest named street,
/// and the town; every field null when the map has nothing near.
///
/// ```
/// {"class":"WHERE","address":"Rue Grimaldi 12","street":"Rue Grimaldi","housenumber":"12",
///  "place":"Monaco","distance_m":6.2,"bearing_deg":80.1,"lat":43.73,"lon":7.42}
/// ```
public struct WhereReport: Sendable, Hashable, Codable {
    public var address: String?
    public var street: String?
    public var housenumber: String?
    public var place: String?
    public var distanceMeters: Double?
    public var bearingDegrees: Double?
    public var latitude: Double?
    public var longitude: Double?
    /// The named square, park, pedestrian area, market or station the position is in.
    public var inside: String?
    /// Its kind (`square`, `park`, `station`).
    public var insideKind: String?

    public init(
        address: String?, street: String?, housenumber: String?, place: String?, distanceMeters: Double?, bearingDegrees: Double?,
        latitude: Double?, longitude: Double?, inside: String? = nil, insideKind: String? = nil
    ) {
        self.inside = inside
        self.insideKind = insideKind
        self.address = address
        self.street = street
        self.housenumber = housenumber
        self.place = place
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey {
        case messageClass = "class", address, street, housenumber, place, distanceMeters = "distance_m", bearingDegrees = "bearing_deg"
        case latitude = "lat", longitude = "lon", inside, insideKind = "inside_kind"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.whereAmI.rawValue, forKey: .messageClass)
        try container.encode(address, forKey: .address)
        try container.encode(street, forKey: .street)
        try container.encode(housenumber, forKey: .housenumber)
        try container.encode(place, forKey: .place)
        try container.encode(WireNumber(distanceMeters), forKey: .distanceMeters)
        try container.encode(WireNumber(bearingDegrees), forKey: .bearingDegrees)
        try container.encode(WireNumber(latitude), forKey: .latitude)
        try container.encode(WireNumber(longitude), forKey: .longitude)
        try container.encodeIfPresent(inside, forKey: .inside)
        try container.encodeIfPresent(insideKind, forKey: .insideKind)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            address: try container.decodeIfPresent(String.self, forKey: .address),
            street: try container.decodeIfPresent(String.self, forKey: .street),
            housenumber: try container.decodeIfPresent(String.self, forKey: .housenumber),
            place: try container.decodeIfPresent(String.self, forKey: .place),
            distanceMeters: try container.decodeIfPresent(Double.self, forKey: .distanceMeters),
            bearingDegrees: try container.decodeIfPresent(Double.self, forKey: .bearingDegrees),
            latitude: try container.decodeIfPresent(Double.self, forKey: .latitude),
            longitude: try container.decodeIfPresent(Double.self, forKey: .longitude),
            inside: try container.decodeIfPresent(String.self, forKey: .inside),
            insideKind: try container.decodeIfPresent(String.self, forKey: .insideKind))
    }
}
