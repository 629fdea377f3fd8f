/// An RFC 5870 `geo:` URI: `geo:LAT,LON[,ALT][;crs=wgs84][;u=METRES]`.
public struct GeoURI: Sendable, Hashable {
    /// The point it names.
    public var coordinate: Coordinate
    /// Its `u` parameter: how far the point may be from where it is written, metres (RFC 5870
    /// §3.4.3); nil when the URI does not say.
    public var uncertaintyMeters: Double?

    public init(coordinate: Coordinate, uncertaintyMeters: Double? = nil) {
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
    }

    /// Reads a `geo:` URI (the scheme in any case). The altitude is checked but not kept;
    /// unknown parameters and a query other than a search (`?z=17`) are ignored.
    /// - Throws: ``CoordinateParseError`` naming the first problem; a search query
    ///   (`geo:0,0?q=…`, whose coordinates are a placeholder) is a malformed URI here.
    public init(parsing text: String) throws(CoordinateParseError) {
        self = try CoordinateParser.parseGeo(text)
    }
}
