/// "Where am I": the nearest address within ``PlaceIndexReader/addressRadiusMeters``, else the
/// nearest named street, and the town.
public struct WhereAnswer: Sendable, Equatable {
    /// `Boulevard des Moulins 12` (street and number), when an address is near enough.
    public var address: String?
    public var street: String?
    public var housenumber: String?
    /// The nearest town, village or quarter, when one is within ``PlaceIndexReader/townRadiusMeters``.
    public var place: String?
    /// From the position asked about to the address's point or the street's nearest point.
    public var distanceMeters: Double
    /// The direction of that point from the position asked about.
    public var bearingDegrees: Double
    /// The address's point or the street's nearest point.
    public var latitude: Double
    public var longitude: Double
    /// The named square, pedestrian area, park, garden, market or station the position is
    /// in, the smallest when several are; said first.
    public var inside: String?
    /// Its kind (`square`, `park`, `station`).
    public var insideKind: String?
}
