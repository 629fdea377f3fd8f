import TextFormats

/// What the place index keeps of one OpenStreetMap object, read from a GeoJSON feature as
/// `osmium export -f geojsonseq` writes it: its names, its kind, its address, the point that
/// stands for it and, for a named street, its line.
public struct MapFeature: Sendable, Equatable {
    /// The name first, then the other names (`alt_name`, `official_name`, `name:fr`…), each once.
    public var names: [String]
    /// What it is in plain English (``PlaceKind``), if the tags say.
    public var kind: String?
    /// `addr:street` (or `addr:place` where there are no street names).
    public var street: String?
    public var housenumber: String?
    /// `addr:city`, else `addr:place`'s town, if any.
    public var city: String?
    /// `brand`, else `operator`: what tells one unnamed ATM from another by ear ("LCL").
    public var operatorName: String?
    public var latitude: Double
    public var longitude: Double
    /// A named street's line, latitude and longitude pairs; empty for everything else.
    public var line: [(latitude: Double, longitude: Double)]
    /// Whether it is drawn as an area (a building, a park), its point one inside it: a node of
    /// the same name and kind near it is the same object drawn twice (a shop and its building).
    public var isArea = false
    /// The outer ring of a named square, pedestrian area, park, garden, market or station
    /// (``enclosingTags``): "where am I" names it first when the wearer is inside. Empty for
    /// everything else.
    public var outline: [(latitude: Double, longitude: Double)] = []
    /// The tags of areas a walker is *in*, and says so, rather than near.
    package static let enclosingTags: Set<String> = [
        "place=square", "highway=pedestrian", "leisure=park", "leisure=garden", "railway=station", "public_transport=station",
        "amenity=marketplace",
    ]
    /// A street's level: below 0 under the ground (`tunnel=*`, `layer<0`,
    /// `location=underground`), above 0 in the air (`bridge=*`, `layer>0`), else 0.
    public var level = 0

    public static func == (a: MapFeature, b: MapFeature) -> Bool {
        a.names == b.names && a.kind == b.kind && a.street == b.street && a.housenumber == b.housenumber && a.city == b.city
            && a.latitude == b.latitude && a.longitude == b.longitude && a.line.map(\.latitude) == b.line.map(\.latitude)
            && a.line.map(\.longitude) == b.line.map(\.longitude) && a.isArea == b.isArea && a.level == b.level && a.operatorName == b.operatorName
            && a.outline.map(\.latitude) == b.outline.map(\.latitude) && a.outline.map(\.longitude) == b.outline.map(\.longitude)
    }

    /// A named place at a point, for tests and tools.
    public init(
        name: String, kind: String? = nil, street: String? = nil, housenumber: String? = nil, city: String? = nil,
        latitude: Double, longitude: Double
    ) {
        names = [name]
        self.kind = kind
        self.street = street
        self.housenumber = housenumber
        self.city = city
        self.latitude = latitude
        self.longitude = longitude
        line = []
    }

    /// Names and address values longer than this are cut (a 10 MB name tag must not make a
    /// 10 MB row): no real place name comes near it.
    public static let maximumTextCharacters = 200
    /// The most points kept of a street's line; past it, evenly spaced ones.
    public static let maximumLinePoints = 2000

    /// Keys of the names kept beside `name`.
    package static let otherNameKeys = ["alt_name", "official_name", "old_name", "short_name", "loc_name", "int_name"]

    /// The feature, or nil when it has no name, no address and no kind asked for by category,
    /// or no usable geometry.
    package init?(geoJSON feature: JSONValue) {
        guard let object = feature.object, let properties = object["properties"]?.object, let geometry = object["geometry"]?.object
        else { return nil }
        var tags: [String: String] = [:]
        for (key, value) in properties { if let text = value.string { tags[key] = Self.cut(text) } }
        var names: [String] = []
        for key in ["name"] + Self.otherNameKeys + tags.keys.filter({ $0.hasPrefix("name:") }).sorted() {
            guard let value = tags[key] else { continue }
            // `alt_name` may hold several, `;`-separated; each made a name by the place-name rule,
            // since a result's name becomes a destination's.
            for name in value.split(separator: ";").compactMap({ PlaceName.cleaned(String($0)) }) where !names.contains(name) {
                names.append(name)
            }
        }
        self.names = names
        street = tags["addr:street"] ?? tags["addr:place"]
        housenumber = tags["addr:housenumber"]
        city = tags["addr:city"] ?? (tags["addr:street"] != nil ? tags["addr:place"] : nil)
        operatorName = (tags["brand"] ?? tags["operator"]).flatMap(PlaceName.cleaned)
        kind = PlaceKind.kind(tags)
        guard !names.isEmpty || (street != nil && housenumber != nil) || kind.map(PlaceKind.isAskedFor) == true else { return nil }
        guard let type = geometry["type"]?.string, let coordinates = geometry["coordinates"] else { return nil }
        let point: RepresentativePoint.Position?
        line = []
        switch type {
        case "Point":
            point = Self.position(coordinates)
        case "LineString":
            let positions = coordinates.array?.compactMap(Self.position) ?? []
            point = RepresentativePoint.alongLine(positions)
            if tags["highway"] != nil, !names.isEmpty {
                line = Self.thinned(positions).map { ($0.latitude, $0.longitude) }
                level = Self.level(tags)
            }
        case "Polygon":
            let rings = Self.rings(coordinates)
            point = RepresentativePoint.insidePolygon(rings)
            isArea = true
            if !names.isEmpty, Self.encloses(tags) { outline = Self.thinned(rings.first ?? []).map { ($0.latitude, $0.longitude) } }
        case "MultiPolygon":
            let polygons = coordinates.array?.map(Self.rings) ?? []
            point = RepresentativePoint.insideMultiPolygon(polygons)
            isArea = true
            // The largest part's outer ring: a station's hall, not a shelter apart from it.
            if !names.isEmpty, Self.encloses(tags), let largest = polygons.compactMap(\.first).max(by: { $0.count < $1.count }) {
                outline = Self.thinned(largest).map { ($0.latitude, $0.longitude) }
            }
        default:
            point = nil
        }
        guard let point, point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90, abs(point.longitude) <= 180
        else { return nil }
        latitude = point.latitude
        longitude = point.longitude
    }

    /// Whether the tags are those of an area a walker is in (``enclosingTags``).
    static func encloses(_ tags: [String: String]) -> Bool {
        ["place", "highway", "leisure", "railway", "public_transport", "amenity"].contains { key in
            tags[key].map { enclosingTags.contains("\(key)=\($0)") } == true
        }
    }

    /// Under, on or above the ground, from the tags that say (see ``level``).
    static func level(_ tags: [String: String]) -> Int {
        let layer = tags["layer"].flatMap { Int($0) } ?? 0
        if tags["tunnel"].map({ $0 != "no" }) == true || tags["location"] == "underground" || layer < 0 { return -1 }
        if tags["bridge"].map({ $0 != "no" }) == true || layer > 0 { return 1 }
        return 0
    }

    private static func position(_ value: JSONValue) -> RepresentativePoint.Position? {
        guard let pair = value.array, pair.count >= 2, let longitude = pair[0].number, let latitude = pair[1].number else { return nil }
        return (longitude, latitude)
    }

    private static func rings(_ value: JSONValue) -> [[RepresentativePoint.Position]] {
        value.array?.map { $0.array?.compactMap(position) ?? [] } ?? []
    }

    private static func thinned(_ line: [RepresentativePoint.Position]) -> [RepresentativePoint.Position] {
        guard line.count > maximumLinePoints else { return line }
        return (0..<maximumLinePoints).map { line[$0 * (line.count - 1) / (maximumLinePoints - 1)] }
    }

    private static func cut(_ text: String) -> String {
        text.count <= maximumTextCharacters ? text : String(text.prefix(maximumTextCharacters))
    }
}
