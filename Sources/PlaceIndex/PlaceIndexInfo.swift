/// What an index holds and where it came from: `waypointd map info`, and STATUS's map.
public struct PlaceIndexInfo: Sendable, Equatable {
    /// The extract's file name, as given to the import.
    public var source: String
    /// The extract's OSM timestamp (its replication time), or "unknown".
    public var timestamp: String
    public var places: Int
    public var addresses: Int
    public var streetSegments: Int
}
