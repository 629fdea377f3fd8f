extension DestinationReport: Decodable {
    /// Reads `{"lat":…,"lon":…,"name":…}`. A destination without a position means nothing, so
    /// `lat` and `lon` are required; `name` may be absent or null.
    /// - Throws: `DecodingError` when `lat` or `lon` is missing or null, or a field has the
    ///   wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latitude: try container.decode(Double.self, forKey: .latitude),
            longitude: try container.decode(Double.self, forKey: .longitude),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            radiusMeters: try container.decodeIfPresent(Double.self, forKey: .radius))
    }
}
