/// The reply to `search`: the places found, best first, with distance and direction from the
/// position searched near.
///
/// ```
/// {"class":"SEARCH","results":[{"name":"Boulangerie","kind":"bakery","address":"Rue Grimaldi 12",
///   "lat":43.73,"lon":7.42,"distance_m":120.4,"bearing_deg":310.2}],"map":"monaco.osm.pbf"}
/// ```
public struct SearchReport: Sendable, Hashable {
    /// One place found.
    public struct Result: Sendable, Hashable, Codable {
        enum CodingKeys: String, CodingKey {
            case name, kind, address, latitude = "lat", longitude = "lon", distanceMeters = "distance_m", bearingDegrees = "bearing_deg"
            case operatorName = "operator", nearStreet = "near_street"
        }

        public var name: String?
        public var kind: String?
        public var address: String?
        public var latitude: Double
        public var longitude: Double
        public var distanceMeters: Double
        public var bearingDegrees: Double
        /// Its brand or operator, when not its name (`LCL` for an ATM).
        public var operatorName: String?
        /// For a result without an address, the nearest street on the map.
        public var nearStreet: String?

        public init(
            name: String?, kind: String?, address: String?, latitude: Double, longitude: Double, distanceMeters: Double, bearingDegrees: Double,
            operatorName: String? = nil, nearStreet: String? = nil
        ) {
            self.operatorName = operatorName
            self.nearStreet = nearStreet
            self.name = name
            self.kind = kind
            self.address = address
            self.latitude = latitude
            self.longitude = longitude
            self.distanceMeters = distanceMeters
            self.bearingDegrees = bearingDegrees
        }
    }

    public var results: [Result]
    /// The extract the index was built from.
    public var map: String?

    public init(results: [Result], map: String?) {
        self.results = results
        self.map = map
    }
}

extension SearchReport: Codable {
    enum CodingKeys: String, CodingKey { case messageClass = "class", results, map }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.search.rawValue, forKey: .messageClass)
        try container.encode(results, forKey: .results)
        try container.encode(map, forKey: .map)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            results: try container.decode([Result].self, forKey: .results), map: try container.decodeIfPresent(String.self, forKey: .map))
    }
}
