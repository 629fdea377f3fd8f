/// A place found by a search, with where it is from the reference position.
public struct SearchResult: Sendable, Equatable {
    /// Its name as written; nil for an address without a name.
    public var name: String?
    public var kind: String?
    /// Street and number, and town when known: `Boulevard des Moulins 12, Monaco`.
    public var address: String?
    /// Its house number, when it is an address.
    public var housenumber: String?
    public var latitude: Double
    public var longitude: Double
    public var distanceMeters: Double
    /// From the reference position, degrees clockwise from true north.
    public var bearingDegrees: Double
    /// How well it matched, higher first (for tests and ordering; not shown).
    public var score: Double
    /// Whether the map draws it as an area (``MapFeature/isArea``).
    public var isArea = false
    /// Its brand or operator (``MapFeature/operatorName``), when not its name.
    public var operatorName: String?
    /// The nearest street on the surface within ``PlaceIndexReader/nearStreetMeters``, for a
    /// result without an address: what tells two bakeries apart by ear.
    public var nearStreet: String?
}
