import Geodesy

/// The rules for each map service's links: which parts carry the pin, which the map's centre,
/// which the name. From each service's documented URL schemes and links shared by its apps.
enum MapLink {
    /// What a link says, before it is settled: evidence, or at once the reason it cannot say.
    enum Reading {
        case evidence(LinkEvidence)
        case failure(LocationError)
    }

    /// Reads a link taken apart.
    static func read(_ link: LinkParts) -> Reading {
        let host = link.host.hasPrefix("www.") ? String(link.host.dropFirst(4)) : link.host
        let path = link.pathSegments
        switch host {
        case "maps.app.goo.gl", "goo.gl", "share.google", "g.co":
            return .failure(.needsServer(service: "Google Maps short link"))
        case "maps.apple":
            return .failure(.needsServer(service: "Apple Maps short link"))
        case "maps.apple.com" where path.first == "p":
            return .failure(.needsServer(service: "Apple Maps short link"))
        case "maps.apple.com":
            return apple(link)
        case "openstreetmap.org", "osm.org":
            return openStreetMap(link)
        case "osmand.net":
            return osmAnd(link)
        case "waze.com", "ul.waze.com":
            return waze(link)
        case "bing.com" where path.first?.lowercased() == "maps":
            return bing(link)
        case "omaps.app", "ge0.me":
            return .failure(.codedLink(service: "Organic Maps link"))
        default:
            // google.com, google.de, google.co.uk, maps.google.com…: maps under /maps, or
            // anything on a maps. host.
            let labels = host.utf8.split(separator: UInt8(ascii: ".")).map { String(decoding: $0, as: UTF8.self) }
            let isMapsHost = labels.count >= 3 && labels[0] == "maps" && labels[1] == "google"
            let isGoogle = labels.count >= 2 && labels[0] == "google"
            if isMapsHost || (isGoogle && path.first == "maps") { return google(link) }
            return .failure(.unknownLink(host: link.host))
        }
    }

    /// Google Maps: `/maps/place/NAME/@LAT,LON,Zz/data=…!3dLAT!4dLON`, `/maps/@LAT,LON,Zz`,
    /// `/maps/place/LAT,LON`, `/maps/search/…`, `/maps/dir/…/DESTINATION`, `?q=`, `?ll=`,
    /// `?api=1&query=`, `?api=1&destination=` (developers.google.com/maps/documentation/urls).
    private static func google(_ link: LinkParts) -> Reading {
        if link.query.contains(where: { $0.name == "q" && $0.value.lowercased().hasPrefix("place_id:") })
            || link.value("query_place_id") != nil && link.value("query") == nil
        {
            return .failure(.needsServer(service: "Google Maps place-id link"))
        }
        var evidence = LinkEvidence(source: .googleMaps)
        var path = link.pathSegments[...]
        if path.first == "maps" { path = path.dropFirst() }
        for segment in path {
            if segment.hasPrefix("@") {
                // The camera: @LAT,LON,17z (or ,350m, or a street view's ,3a,75y).
                let parts = segment.utf8.dropFirst().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                if parts.count >= 2 {
                    evidence.read(String(decoding: segment.utf8.dropFirst().prefix(parts[0].count + 1 + parts[1].count), as: UTF8.self), as: .centre)
                }
            } else if segment.hasPrefix("data=") {
                for pin in Self.dataPins(segment) { evidence.read(pin, as: .pin) }
            }
        }
        switch path.first {
        case "place", "search":
            // The place's name, or its coordinates or plus code; a `+` here is a space.
            if path.count >= 2, !path[path.startIndex + 1].hasPrefix("@") {
                evidence.read(Self.placeSegment(path[path.startIndex + 1]), as: .pin, textIsName: path.first == "place")
            }
        case "dir":
            // /maps/dir/ORIGIN/DESTINATION/@…: the last stop is where the wearer is going.
            if let destination = path.dropFirst().last(where: { !$0.hasPrefix("@") && !$0.hasPrefix("data=") }) {
                evidence.read(Self.placeSegment(destination), as: .pin)
            }
        default:
            break
        }
        for key in ["q", "query", "destination", "daddr"] {
            if let value = link.value(key) { evidence.read(value, as: .pin) }
        }
        if let value = link.value("ll") { evidence.read(value, as: .centre) }
        if let value = link.value("center") { evidence.read(value, as: .centre) }
        return .evidence(evidence)
    }

    /// A Google Maps path segment naming a place, its `+`s read as spaces, except the one in
    /// a plus code it starts with (`V75V+8Q+Paris` is `V75V+8Q Paris`).
    static func placeSegment(_ segment: String) -> String {
        let bytes = Array(segment.utf8)
        guard let plus = bytes.firstIndex(of: UInt8(ascii: "+")) else { return segment }
        let codeEnd = bytes[(plus + 1)...].firstIndex(of: UInt8(ascii: "+")) ?? bytes.endIndex
        let keep = OpenLocationCode.isValid(String(decoding: bytes[..<codeEnd], as: UTF8.self)) ? codeEnd : 0
        let spaced = bytes.indices.map { $0 >= keep && bytes[$0] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[$0] }
        return String(decoding: spaced, as: UTF8.self)
    }

    /// The `!3dLAT!4dLON` pairs of a Google Maps `data=` segment, as `LAT,LON`.
    static func dataPins(_ segment: String) -> [String] {
        // Fields are `!` then a key (`3d`) then a value: look for `!3d` and the `!4d` that must
        // follow its value at once.
        let bytes = Array(segment.utf8)
        func field(at start: Int, key: UInt8) -> Range<Int>? {
            guard start + 3 <= bytes.count, bytes[start] == UInt8(ascii: "!"), bytes[start + 1] == UInt8(ascii: key == 3 ? "3" : "4"),
                bytes[start + 2] == UInt8(ascii: "d")
            else { return nil }
            let end = bytes[(start + 3)...].firstIndex(of: UInt8(ascii: "!")) ?? bytes.count
            return (start + 3)..<end
        }
        var pins: [String] = []
        var index = 0
        while let bang = bytes[index...].firstIndex(of: UInt8(ascii: "!")) {
            if let latitude = field(at: bang, key: 3), let longitude = field(at: latitude.upperBound, key: 4) {
                pins.append(String(decoding: bytes[latitude], as: UTF8.self) + "," + String(decoding: bytes[longitude], as: UTF8.self))
                index = longitude.upperBound
            } else {
                index = bang + 1
            }
        }
        return pins
    }

    /// Apple Maps: `?ll=` (the place, `q=` its name), `?daddr=`, `?coordinate=`, `?sll=`
    /// (the search's centre), `/place?coordinate=…&name=…` (developer.apple.com, "Map Links").
    private static func apple(_ link: LinkParts) -> Reading {
        var evidence = LinkEvidence(source: .appleMaps)
        for key in ["ll", "coordinate", "daddr"] {
            if let value = link.value(key) { evidence.read(value, as: .pin) }
        }
        // Beside the place's coordinates `q` is its label; alone it is a search.
        evidence.name = link.value("name")
        if let query = link.value("q") {
            if evidence.hasPlace { evidence.name = evidence.name ?? query } else { evidence.read(query, as: .pin) }
        }
        if let value = link.value("sll") { evidence.read(value, as: .centre) }
        if !evidence.hasPlace, link.value("auid") != nil || link.value("place-id") != nil {
            return .failure(.needsServer(service: "Apple Maps place link"))
        }
        if !evidence.hasPlace, let address = link.value("address") {
            evidence.read(address, as: .pin)
        }
        return .evidence(evidence)
    }

    /// OpenStreetMap: `?mlat=&mlon=` (the marker), `#map=Z/LAT/LON` (the map), `?lat=&lon=`,
    /// `/directions?route=A;B` (the last stop). `/node/ID` and the like need the OSM API.
    private static func openStreetMap(_ link: LinkParts) -> Reading {
        var evidence = LinkEvidence(source: .openStreetMap)
        evidence.read(latitude: link.value("mlat"), longitude: link.value("mlon"), as: .pin)
        if let route = link.value("route"), let last = route.split(separator: ";").last {
            evidence.read(String(last), as: .pin)
        }
        evidence.read(latitude: link.value("lat"), longitude: link.value("lon"), as: .centre)
        if let map = Self.fragmentValue(link.fragment, "map") { Self.readZoomLatitudeLongitude(map, into: &evidence) }
        if let query = link.value("query") { evidence.read(query, as: .pin) }
        let objects: Set<String> = ["node", "way", "relation"]
        if !evidence.hasPlace, let kind = link.pathSegments.first {
            if objects.contains(kind) { return .failure(.needsServer(service: "OpenStreetMap \(kind) link")) }
            if kind == "go" { return .failure(.codedLink(service: "OpenStreetMap short link")) }
        }
        return .evidence(evidence)
    }

    /// OsmAnd: `/go?lat=&lon=&z=`, `/map?pin=LAT,LON#Z/LAT/LON` (osmand.net).
    private static func osmAnd(_ link: LinkParts) -> Reading {
        var evidence = LinkEvidence(source: .osmAnd)
        evidence.read(latitude: link.value("lat"), longitude: link.value("lon"), as: .pin)
        if let pin = link.value("pin") { evidence.read(pin, as: .pin) }
        evidence.name = link.value("name")
        Self.readZoomLatitudeLongitude(link.fragment, into: &evidence)
        return .evidence(evidence)
    }

    /// Waze: `/ul?ll=LAT,LON` and `/live-map/directions?to=ll.LAT,LON` (the destination);
    /// `?q=` is a search.
    private static func waze(_ link: LinkParts) -> Reading {
        var evidence = LinkEvidence(source: .waze)
        if let value = link.value("ll") { evidence.read(value, as: .pin) }
        if let to = link.value("to"), to.hasPrefix("ll.") { evidence.read(String(to.dropFirst(3)), as: .pin) }
        if let query = link.value("q") { evidence.read(query, as: .pin) }
        return .evidence(evidence)
    }

    /// Bing Maps: `?cp=LAT~LON` (the map), `?sp=point.LAT_LON_NAME` (a pin and its name),
    /// `?where1=` and `?q=` (searches).
    private static func bing(_ link: LinkParts) -> Reading {
        var evidence = LinkEvidence(source: .bing)
        if let point = link.value("sp"), point.hasPrefix("point.") {
            let fields = point.dropFirst(6).split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count >= 2 { evidence.read(fields[0] + "," + fields[1], as: .pin) }
            if fields.count == 3, !fields[2].isEmpty { evidence.name = String(fields[2]) }
        }
        if let centre = link.value("cp") {
            evidence.read(centre.split(separator: "~", omittingEmptySubsequences: false).joined(separator: ","), as: .centre)
        }
        for key in ["where1", "q"] {
            if let value = link.value(key) { evidence.read(value, as: .pin) }
        }
        return .evidence(evidence)
    }

    /// `Z/LAT/LON` (OpenStreetMap's and OsmAnd's map position) as the map's centre.
    private static func readZoomLatitudeLongitude(_ text: String, into evidence: inout LinkEvidence) {
        let fields = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard fields.count == 3, !fields[0].isEmpty, fields[0].allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") })
        else { return }
        evidence.read(String(decoding: text.utf8.dropFirst(fields[0].count + 1), as: UTF8.self).replacingSlash, as: .centre)
    }

    /// The value of `name=` in a fragment of `&`-separated pairs (`map=17/48.85/2.29&layers=N`).
    private static func fragmentValue(_ fragment: String, _ name: String) -> String? {
        for pair in fragment.utf8.split(separator: UInt8(ascii: "&")) where pair.starts(with: (name + "=").utf8) {
            return String(decoding: pair.dropFirst(name.utf8.count + 1), as: UTF8.self)
        }
        return nil
    }
}

extension String {
    /// `LAT/LON` as `LAT,LON`.
    fileprivate var replacingSlash: String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "/") ? UInt8(ascii: ",") : $0 }, as: UTF8.self)
    }
}
