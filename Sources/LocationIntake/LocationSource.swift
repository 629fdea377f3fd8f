/// What kind of text a ``Location`` was read from.
public enum LocationSource: String, Sendable, CaseIterable {
    /// Typed coordinates: decimal degrees, degrees-minutes-seconds and the like.
    case coordinates
    /// An RFC 5870 `geo:` URI, or Android's `geo:0,0?q=LAT,LON(Label)`.
    case geoURI = "geo-uri"
    case googleMaps = "google-maps"
    case appleMaps = "apple-maps"
    case openStreetMap = "openstreetmap"
    case osmAnd = "osmand"
    case waze
    case bing = "bing-maps"
    /// A full Open Location Code.
    case plusCode = "plus-code"
    /// A short Open Location Code, completed near a reference position.
    case shortPlusCode = "short-plus-code"

    /// The source in words: "Google Maps link".
    public var description: String {
        switch self {
        case .coordinates: "coordinates"
        case .geoURI: "geo: URI"
        case .googleMaps: "Google Maps link"
        case .appleMaps: "Apple Maps link"
        case .openStreetMap: "OpenStreetMap link"
        case .osmAnd: "OsmAnd link"
        case .waze: "Waze link"
        case .bing: "Bing Maps link"
        case .plusCode: "plus code"
        case .shortPlusCode: "short plus code"
        }
    }
}
