import Geodesy
import TextFormats

/// What one link (or `geo:` URI) says about a place, gathered value by value, then settled
/// into one ``Location`` or the reason there is none.
///
/// A link may hold the place's pin (a marker, a search for coordinates, a destination) and the
/// map's centre (where the map was looking): the pin wins over the centre, and two pins (or,
/// with no pin, two centres) more than ``LocationParser/samePlaceMeters`` apart are a conflict.
struct LinkEvidence {
    /// Whether a value marks the place or only where the map was looking.
    enum Standing {
        case pin
        case centre
    }

    let source: LocationSource
    private(set) var pins: [Coordinate] = []
    private(set) var centres: [Coordinate] = []
    /// The name the link gives the place, as written (cleaned when settled).
    var name: String?
    /// A plus code in the link (`/maps/place/8FW4V75V+8Q`), completed when settled.
    private(set) var plusCode: String?
    /// Text the link would search for: an address or a name without coordinates.
    private(set) var searchText: String?
    /// The first value whose coordinates were wrong.
    private(set) var error: LocationError?
    /// The uncertainty the link states, metres (a `geo:` URI's `u`).
    var uncertaintyMeters: Double?

    /// Whether any value placed it: a pin, a centre or a plus code.
    var hasPlace: Bool { !pins.isEmpty || !centres.isEmpty || plusCode != nil }

    init(source: LocationSource) {
        self.source = source
    }

    /// Records why it cannot be placed, unless a reason came first.
    mutating func fail(_ reason: LocationError) {
        if error == nil { error = reason }
    }

    /// Adds a point read elsewhere.
    mutating func add(_ coordinate: Coordinate, as standing: Standing) {
        switch standing {
        case .pin: pins.append(coordinate)
        case .centre: centres.append(coordinate)
        }
    }

    /// Adds a value a map link carries for a place: `LAT,LON`, `loc:LAT,LON`, `LAT,LON (Label)`
    /// (the label is the name), a plus code, or text to search for (which is also the place's
    /// name when `textIsName`: Google's `/maps/place/NAME`).
    mutating func read(_ value: String, as standing: Standing, textIsName: Bool = false) {
        var text = Substring(value).trimmingSpaces
        if text.utf8.prefix(4).map({ $0 | 0x20 }).elementsEqual("loc:".utf8) { text = text.dropFirst(4).trimmingSpaces }
        if text.utf8.last == UInt8(ascii: ")"), let open = text.lastIndex(of: "(") {
            let label = text[text.index(after: open)..<text.index(before: text.endIndex)]
            if !label.trimmingSpaces.isEmpty, name == nil { name = String(label) }
            text = text[..<open].trimmingSpaces
        }
        guard !text.isEmpty else { return }
        if text.utf8.contains(UInt8(ascii: "+")) {
            let firstWord = text.prefix { !$0.isWhitespace }
            if firstWord.utf8.count >= 4, OpenLocationCode.isValid(String(firstWord)) {
                if plusCode == nil { plusCode = String(firstWord) }
                return
            }
        }
        if let point = Self.decimalPair(text) {
            add(point, as: standing)
            return
        }
        // Words are no coordinate: asking the general parser would only cost its time.
        if LocationParser.isWords(text) {
            if searchText == nil { searchText = String(text) }
            if textIsName, name == nil { name = String(text) }
            return
        }
        do throws(CoordinateParseError) {
            add(try Coordinate(parsing: String(text)), as: standing)
        } catch {
            fail(.badCoordinate(source, error))
        }
    }

    /// `LAT,LON` in plain decimals and in range, the form nearly every link uses, read without
    /// the general parser (a twentieth of its time); nil for anything else, which the general
    /// parser then reads or explains.
    static func decimalPair(_ text: Substring) -> Coordinate? {
        let utf8 = text.utf8
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let latitude = text[..<comma]
        let longitude = text[utf8.index(after: comma)...]
        guard isPlainDecimal(latitude), isPlainDecimal(longitude), let lat = Double(latitude), let lon = Double(longitude),
            abs(lat) <= Coordinate.latitudeLimitDegrees, abs(lon) <= Coordinate.longitudeLimitDegrees
        else { return nil }
        return Coordinate(uncheckedLatitudeDegrees: lat, longitudeDegrees: lon)
    }

    /// `[-+]digits[.digits]`: what `Double` reads exactly as written (no exponent, NaN, hex).
    private static func isPlainDecimal(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits = 0
        var points = 0
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                points += 1
            } else {
                return false
            }
        }
        return digits > 0 && points <= 1 && bytes.first != UInt8(ascii: ".") && bytes.last != UInt8(ascii: ".")
    }

    /// Adds a latitude and a longitude given apart (`mlat=…&mlon=…`); nothing when either is
    /// missing.
    mutating func read(latitude: String?, longitude: String?, as standing: Standing) {
        guard let latitude, let longitude else { return }
        read(latitude + "," + longitude, as: standing)
    }

    /// The place, or why there is none. A short plus code is completed near the link's own
    /// map centre, where the map was looking (`/maps/place/PCQH+F8+Monaco/@43.73,7.42,17z`),
    /// else near `reference` (issue 40: completed near the wearer, it was 16 km from Paris).
    func settled(near reference: Coordinate?) -> Result<Location, LocationError> {
        let cleanName = name.flatMap(PlaceName.cleaned)
        if let pin = pins.first {
            if let conflict = Self.conflict(in: pins, source: source) { return .failure(conflict) }
            return .success(Location(coordinate: pin, name: cleanName, source: source, precisionMeters: uncertaintyMeters))
        }
        if let plusCode {
            return LocationParser.plusCode(plusCode, near: centres.first ?? reference).map { found in
                var location = found
                location.name = cleanName
                return location
            }
        }
        if let error { return .failure(error) }
        // Where the map was looking when it searched for a name is not where the name is.
        if let searchText { return .failure(.needsSearch(searchText, source)) }
        if let centre = centres.first {
            if let conflict = Self.conflict(in: centres, source: source) { return .failure(conflict) }
            return .success(Location(coordinate: centre, name: cleanName, source: source, precisionMeters: uncertaintyMeters))
        }
        if let cleanName { return .failure(.needsSearch(cleanName, source)) }
        return .failure(.noCoordinates(source))
    }

    /// Two of `points` that are not the same place, as a conflict.
    private static func conflict(in points: [Coordinate], source: LocationSource) -> LocationError? {
        for other in points.dropFirst() {
            let meters = Geodesic.wgs84.inverse(from: points[0], to: other).distanceMeters
            if meters > LocationParser.samePlaceMeters {
                return .conflicting(
                    Location(coordinate: points[0], source: source), Location(coordinate: other, source: source), meters: meters)
            }
        }
        return nil
    }
}

extension Substring {
    /// Without whitespace at either end (judged by scalar: cheaper than by character, and
    /// no whitespace combines with what follows it).
    var trimmingSpaces: Substring {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        while start < end, scalars[scalars.index(before: end)].properties.isWhitespace { end = scalars.index(before: end) }
        return self[start..<end]
    }
}
