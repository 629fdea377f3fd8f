extension VersionGreeting: Decodable {
    /// Reads the `VERSION` greeting. `proto` is required: it is the one thing a client must
    /// check. A missing or null `release` reads as an empty string.
    /// - Throws: `DecodingError` when `proto` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            release: try container.decodeIfPresent(String.self, forKey: .release) ?? "",
            protocolVersion: try container.decode(Int.self, forKey: .protocolVersion))
    }
}
