/// What a place is, in plain English, from its OpenStreetMap tags, and the words a person
/// types to ask for places of a kind ("bakery", "bus stop", "atm").
public enum PlaceKind {
    /// The tag keys that say what a place is, in the order they are asked.
    static let keys = [
        "amenity", "shop", "tourism", "leisure", "highway", "railway", "public_transport", "historic", "office", "craft",
        "healthcare", "aeroway", "natural", "place", "building",
    ]

    /// Values whose English name is not the value with `_` as a space.
    static let names: [String: String] = [
        "amenity=place_of_worship": "place of worship", "amenity=fast_food": "fast food", "amenity=atm": "atm",
        "amenity=post_office": "post office", "amenity=post_box": "post box", "amenity=toilets": "toilets",
        "amenity=fuel": "fuel", "amenity=cafe": "cafe", "highway=bus_stop": "bus stop", "railway=station": "station",
        "railway=halt": "station", "public_transport=station": "station", "public_transport=platform": "stop",
        "public_transport=stop_position": "stop", "amenity=drinking_water": "drinking water",
        "highway=pedestrian": "street", "highway=residential": "street", "highway=primary": "street",
        "highway=secondary": "street", "highway=tertiary": "street", "highway=unclassified": "street",
        "highway=living_street": "street", "highway=service": "street", "highway=footway": "footway",
        "highway=steps": "steps", "highway=path": "path", "highway=cycleway": "cycleway", "highway=track": "track",
        "highway=trunk": "street", "highway=motorway": "motorway", "building=yes": "building",
    ]

    /// The kind of a place from its tags: `bakery`, `bus stop`, `church` (a Christian place of
    /// worship), `hotel`; nil when no tag says.
    public static func kind(_ tags: [String: String]) -> String? {
        for key in keys {
            guard let value = tags[key], value != "no" else { continue }
            if key == "amenity", value == "place_of_worship" {
                return tags["religion"] == "christian" ? "church" : tags["religion"] == "muslim" ? "mosque" : "place of worship"
            }
            if key == "tourism", value == "information" { return tags["information"] == "office" ? "tourist office" : "information" }
            // One plain name a kind (issue 40: "bus stop" and "stop" read as two things).
            if key == "public_transport", value == "platform" || value == "stop_position" {
                return tags["bus"] == "yes" || tags["trolleybus"] == "yes" ? "bus stop" : tags["tram"] == "yes" ? "tram stop" : "stop"
            }
            if let name = names["\(key)=\(value)"] { return name }
            if value == "yes" { return key.replacingUnderscores }
            if key == "shop" { return value.replacingUnderscores + (["bakery", "supermarket", "butcher", "florist"].contains(value) ? "" : " shop") }
            return value.replacingUnderscores
        }
        return nil
    }

    /// The kinds a typed word asks for, folded (`cafe`, `bus stop`, `pharmacie`); more than one
    /// kind may answer (`church` asks for churches, `station` for train and bus stations). From
    /// ``CategoryWords``' table, in five languages.
    public static let queries: [String: Set<String>] = CategoryWords.kinds

    /// The kinds of place that name a town, a city down to a hamlet: "where am I" says the
    /// nearest, and a short plus code written with a town is completed near it.
    public static let townKinds: Set<String> = ["city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet"]

    /// The fewest letters typed that ask for a category by a word's beginning (`boulang`).
    public static let minimumPrefixBytes = 4

    /// The kinds typed words (folded, joined by spaces) ask for: a word of the table, or the
    /// beginning of one, ``minimumPrefixBytes`` or more, that all the table's words it begins
    /// ask for the same kinds by (`pharm`, `boulang`; not `banc`, which begins a bank in
    /// Italian and a bench in French).
    public static func category(_ typed: String) -> Set<String>? {
        if let kinds = queries[typed] { return kinds }
        guard typed.utf8.count >= minimumPrefixBytes else { return nil }
        var found: Set<String>?
        for (word, kinds) in queries where word.hasPrefix(typed) {
            if let found, found != kinds { return nil }
            found = kinds
        }
        return found
    }
}

extension PlaceKind {
    /// Whether a kind is one a category query asks for: kept even without a name.
    public static func isAskedFor(_ kind: String) -> Bool { askedKinds.contains(kind) }

    static let askedKinds: Set<String> = Set(queries.values.flatMap { $0 })

    /// The tag values a kind a category asks for can come from, under any of ``keys``: the
    /// kind itself with `_` for spaces (`fast_food`), a shop's without ` shop` (`chemist`), the
    /// values ``names`` gives an asked name (`halt`, `platform`), and a place of worship's (a
    /// church or a mosque). The import reads a line only if it holds one of them, or a name or
    /// an address (`MapImport.keptKeys`).
    package static let askedTagValues: Set<String> = {
        var values: Set<String> = ["place_of_worship", "information"]
        for kind in askedKinds {
            values.insert(kind.replacingSpaces)
            if kind.hasSuffix(" shop") { values.insert(String(kind.dropLast(" shop".count)).replacingSpaces) }
        }
        for (tag, name) in names where askedKinds.contains(name) { values.insert(String(tag.split(separator: "=")[1])) }
        return values
    }()
}

extension String {
    /// `_` as a space: `post_office` is `post office`.
    var replacingUnderscores: String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// A space as `_`: `post office` is `post_office`, as tags write it.
    var replacingSpaces: String {
        String(decoding: utf8.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
    }
}
