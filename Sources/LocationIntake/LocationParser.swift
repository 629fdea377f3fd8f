import Geodesy
import TextFormats

/// Reads a location from what people type and phones share: coordinates in any form
/// `Coordinate(parsing:)` reads, `geo:` URIs (RFC 5870, and Android's `geo:0,0?q=LAT,LON(Label)`),
/// map links (Google Maps, Apple Maps, OpenStreetMap, OsmAnd, Waze, Bing Maps), Open Location
/// Codes (plus codes), full or short, and any of these inside a longer text ("Meet me here:
/// https://… thanks"). Pure and offline: a link that only a server could resolve is refused
/// with what to do instead, never fetched.
public enum LocationParser {
    /// The longest text read, bytes: a shared message with a link is a few hundred; past this
    /// it is not a location someone shared.
    public static let maximumTextBytes = 8192
    /// The most links, `geo:` URIs and plus codes looked at in one text.
    public static let maximumCandidates = 16
    /// Two points nearer than this are one place (a pin written with more digits in one part
    /// of a link than another, the same place shared twice): about a building's size, less
    /// than any arrival radius a walker would use.
    public static let samePlaceMeters = 25.0

    /// The location `text` names.
    /// - Parameters:
    ///   - text: What was typed or pasted.
    ///   - reference: Where a short plus code is completed near; nil when none is known.
    /// - Throws: ``LocationError``: the first reason found, or a conflict between two places.
    public static func parse(_ text: String, near reference: Coordinate? = nil) throws(LocationError) -> Location {
        let bytes = text.utf8.count
        guard bytes <= maximumTextBytes else { throw .tooLong(bytes: bytes) }
        let trimmed = Substring(text).trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        let readings = candidates(in: trimmed).map { read($0, near: reference) }
        guard !readings.isEmpty else { return try typedCoordinates(String(trimmed)) }
        var found: Location?
        var firstFailure: LocationError?
        for reading in readings {
            switch reading {
            case .success(let location):
                guard let first = found else {
                    found = location
                    continue
                }
                let meters = Geodesic.wgs84.inverse(from: first.coordinate, to: location.coordinate).distanceMeters
                if meters > samePlaceMeters { throw .conflicting(first, location, meters: meters) }
            case .failure(let error):
                if firstFailure == nil { firstFailure = error }
            }
        }
        // A place read wins over a link that could not be (a short link shared beside the
        // coordinates).
        if let found { return found }
        throw firstFailure!
    }

    /// Text with no link, `geo:` or plus code: typed coordinates, or words that need a search.
    private static func typedCoordinates(_ text: String) throws(LocationError) -> Location {
        do throws(CoordinateParseError) {
            return Location(coordinate: try Coordinate(parsing: text), source: .coordinates)
        } catch {
            if let coordinate = coordinates(inMessage: text) { return Location(coordinate: coordinate, source: .coordinates) }
            if isWords(text) { throw .needsSearch(text, nil) }
            throw .coordinate(error)
        }
    }

    /// The fewest decimals each number of a pair inside a message needs: phones share 5 or 6,
    /// and "between 1.5 and 2.5 km" is no place.
    static let minimumMessageDecimals = 3

    /// Coordinates inside a message, in the forms people paste ("I'm at 43.7387, 7.4282",
    /// "Location: …", "Lat: 43.7387 Lon: 7.4282", "📍 …", "43.7387° N, 7.4282° E"): exactly
    /// two numbers in the whole text, each with ``minimumMessageDecimals`` decimals or more,
    /// each perhaps followed by a degree sign and a hemisphere; latitude first unless the words
    /// `lon`, `lng` or `longitude` come before `lat`. Read then as typed coordinates are, so the
    /// ranges and hemispheres are checked alike. Nil for anything else.
    static func coordinates(inMessage text: String) -> Coordinate? {
        let scalars = Array(text.unicodeScalars)
        var numbers: [(text: String, decimals: Int)] = []
        var words: [String] = []
        var index = 0
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        while index < scalars.count {
            let scalar = scalars[index]
            if isDigit(scalar) {
                // A sign just before the number belongs to it.
                var number = index > 0 && "-+\u{2212}".unicodeScalars.contains(scalars[index - 1]) ? "-" : ""
                if number == "-", scalars[index - 1] == "+" { number = "" }
                var decimals = -1
                while index < scalars.count, isDigit(scalars[index]) || (scalars[index] == "." && decimals < 0) {
                    if scalars[index] == "." { decimals = 0 } else if decimals >= 0 { decimals += 1 }
                    number.unicodeScalars.append(scalars[index])
                    index += 1
                }
                // A degree sign, spaces, and a hemisphere letter standing alone.
                var ahead = index
                while ahead < scalars.count, scalars[ahead] == "°" || scalars[ahead] == " " { ahead += 1 }
                if ahead < scalars.count, "NSEWnsew".unicodeScalars.contains(scalars[ahead]),
                    ahead + 1 == scalars.count || !scalars[ahead + 1].properties.isAlphabetic
                {
                    number += " " + String(scalars[ahead]).uppercased()
                    index = ahead + 1
                }
                numbers.append((number, decimals))
                if numbers.count > 2 { return nil }
                continue
            }
            if scalar.properties.isAlphabetic {
                var word = ""
                while index < scalars.count, scalars[index].properties.isAlphabetic {
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                if words.count < maximumMessageWords { words.append(word.lowercased()) }
                continue
            }
            index += 1
        }
        guard numbers.count == 2, numbers.allSatisfy({ $0.decimals >= minimumMessageDecimals }) else { return nil }
        let latitudeWord = words.firstIndex { $0 == "lat" || $0 == "latitude" }
        let longitudeWord = words.firstIndex { ["lon", "lng", "long", "longitude"].contains($0) }
        let swapped = latitudeWord != nil && longitudeWord != nil && longitudeWord! < latitudeWord!
        let (first, second) = swapped ? (numbers[1].text, numbers[0].text) : (numbers[0].text, numbers[1].text)
        return try? Coordinate(parsing: first + ", " + second)
    }

    /// The most characters of a town named beside a short plus code.
    public static let maximumLocalityCharacters = 100

    /// A short plus code and the town written beside it, as Google Maps shares them
    /// (`PCQH+F8 Monaco`, `PCQH+F8, Monte-Carlo, Monaco`): the code is completed near that
    /// town, not near the wearer (issue 40). Nil when the text is not a short code, then words.
    public static func shortCodeAndLocality(_ text: String) -> (code: String, locality: String)? {
        // The code first, as Google writes it: "Meet at V75V+8Q" names no town.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" })
        guard let first = words.first.map({ String(trimmingSentencePunctuation($0)) }), OpenLocationCode.isShort(first) else { return nil }
        let rest = words.dropFirst()
        let locality = rest.joined(separator: " ")
        guard !locality.isEmpty, locality.count <= maximumLocalityCharacters, isWords(locality),
            !rest.contains(where: { OpenLocationCode.isValid(String($0)) })
        else { return nil }
        return (first, locality)
    }

    /// Words of a message looked at for `lat` and `lon`.
    static let maximumMessageWords = 64

    /// Whether `text`, which is no coordinate, reads as words (a name, an address): a word of
    /// it has a letter that neither a hemisphere (N S E W), a unit (`d`, `m`, `s`) nor a
    /// number's spelling (`nan`, `inf`) explains.
    public static func isWords<Text: StringProtocol>(_ text: Text) -> Bool {
        var word = ""
        var unexplained = false
        for scalar in text.unicodeScalars {
            if PlaceName.isSpace(scalar) || scalar == "," || scalar == ";" {
                if unexplained, !spelledNumbers.contains(word.lowercased()) { return true }
                word = ""
                unexplained = false
                continue
            }
            if word.utf8.count < 9 { word.unicodeScalars.append(scalar) }
            if !unexplained, scalar.properties.isAlphabetic, !"NSEWnsewdms".unicodeScalars.contains(scalar) { unexplained = true }
        }
        return unexplained && !spelledNumbers.contains(word.lowercased())
    }

    /// Letters that spell a number (refused later as not a plain decimal), not a word.
    private static let spelledNumbers: Set<String> = ["nan", "inf", "infinity"]

    // MARK: - Finding what the text holds

    /// A link, `geo:` URI or plus code found in a text.
    enum Candidate {
        case link(Substring)
        case geo(Substring)
        case plusCode(String)
    }

    /// The links, `geo:` URIs and plus codes in `text`, in order, at most ``maximumCandidates``.
    /// Each is a whitespace-separated word, less the punctuation a sentence puts after it; a
    /// `geo:` label in parentheses may hold spaces (`geo:0,0?q=48.85,2.29(Tour Eiffel)`).
    static func candidates(in text: Substring) -> [Candidate] {
        var found: [Candidate] = []
        // Bytes, not characters: splitting into characters costs a grapheme-break search at
        // every step, and every separator that matters is a scalar of its own, found at its
        // first byte.
        let utf8 = text.utf8
        let scalars = text.unicodeScalars
        /// Whether a byte may start a whitespace scalar: ASCII whitespace, or the lead byte of
        /// U+0085, U+00A0 (C2), U+1680 (E1), U+2000–U+205F (E2), U+3000 (E3).
        func mayBeSpace(_ byte: UInt8) -> Bool {
            byte < 0x80 ? byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) : (0xC2...0xE3).contains(byte)
        }
        func isSpace(at index: String.Index) -> Bool { mayBeSpace(utf8[index]) && PlaceName.isSpace(scalars[index]) }
        /// The first separator at or after `from`, or the end.
        func nextSpace(from: String.Index) -> String.Index {
            var index = from
            while let candidate = utf8[index...].firstIndex(where: mayBeSpace) {
                if isSpace(at: candidate) { return candidate }
                index = utf8.index(after: candidate)
            }
            return utf8.endIndex
        }
        var position = utf8.startIndex
        while found.count < maximumCandidates {
            guard let start = utf8[position...].indices.first(where: { !isSpace(at: $0) }) else { break }
            var end = nextSpace(from: start)
            var word = trimmingSentencePunctuation(text[start..<end])
            let lower = word.utf8.prefix(8).map { $0 | 0x20 }
            if lower.starts(with: "geo:".utf8) {
                // A label may run past spaces to its closing parenthesis.
                if let open = word.utf8.firstIndex(of: UInt8(ascii: "(")), !word.utf8[open...].contains(UInt8(ascii: ")")),
                    let close = utf8[end...].firstIndex(of: UInt8(ascii: ")"))
                {
                    end = utf8.index(after: close)
                    word = trimmingSentencePunctuation(text[word.startIndex..<end])
                }
                found.append(.geo(word))
            } else if lower.starts(with: "http://".utf8) || lower.starts(with: "https://".utf8) {
                found.append(.link(word))
            } else if let plus = word.utf8.firstIndex(of: UInt8(ascii: "+")), word.utf8.distance(from: word.startIndex, to: plus) >= 2,
                OpenLocationCode.isValid(String(word))
            {
                // At least two digits before the `+`: "+22" is a number, not a code.
                found.append(.plusCode(String(word)))
            }
            position = end
        }
        return found
    }


    /// `word` without the punctuation a sentence may put after it (`.`, `,`, `;`, `!`, `?`,
    /// quotes, and a closing bracket that opened before it).
    static func trimmingSentencePunctuation(_ word: Substring) -> Substring {
        let scalars = word.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        // An opening quote or bracket before a link.
        while start < end, "\"'“‘«(<[".unicodeScalars.contains(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let last = scalars[scalars.index(before: end)]
            let opening: Unicode.Scalar? = last == ")" ? "(" : last == "]" ? "[" : last == ">" ? "<" : nil
            if let opening {
                // A closing bracket stays when it closes one opened inside the word.
                let inside = scalars[start..<end]
                if inside.count(where: { $0 == opening }) >= inside.count(where: { $0 == last }) { break }
            } else if !".,;:!?\"'”’»".unicodeScalars.contains(last) {
                break
            }
            end = scalars.index(before: end)
        }
        return word[start..<end]
    }

    // MARK: - Reading each

    private static func read(_ candidate: Candidate, near reference: Coordinate?) -> Result<Location, LocationError> {
        switch candidate {
        case .plusCode(let code):
            return plusCode(code, near: reference)
        case .geo(let text):
            return geo(text).settled(near: reference)
        case .link(let text):
            guard let parts = LinkParts(text) else { return .failure(.unknownLink(host: String(text))) }
            switch MapLink.read(parts) {
            case .evidence(let evidence): return evidence.settled(near: reference)
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// A `geo:` URI: RFC 5870's `geo:LAT,LON;u=…`, or Android's `geo:LAT,LON?q=LAT,LON(Label)`
    /// (the query's point is the pin, the path's only where the map looks; `geo:0,0?q=ADDRESS`
    /// is a search).
    static func geo(_ text: Substring) -> LinkEvidence {
        var evidence = LinkEvidence(source: .geoURI)
        var uri = String(text)
        if let mark = text.firstIndex(of: "?") {
            let query = text[text.index(after: mark)...]
            for pair in query.split(separator: "&") where pair.lowercased().hasPrefix("q=") {
                evidence.read(LinkParts.decoded(pair.dropFirst(2), plusIsSpace: true), as: .pin)
            }
            uri = String(text[..<mark])
        }
        let path: GeoURI
        if let point = LinkEvidence.decimalPair(Substring(uri).dropFirst(4)) {
            // geo:LAT,LON, plain, as apps write it: without the general parser.
            path = GeoURI(coordinate: point)
        } else {
            do throws(CoordinateParseError) {
                path = try GeoURI(parsing: uri)
            } catch {
                if !evidence.hasPlace { evidence.fail(.coordinate(error)) }
                return evidence
            }
        }
        evidence.uncertaintyMeters = path.uncertaintyMeters
        // `geo:0,0` is Android's placeholder beside a query, not a place in the ocean.
        let isPlaceholder = path.coordinate.latitudeDegrees == 0 && path.coordinate.longitudeDegrees == 0
        if !(isPlaceholder && text.contains("?")) { evidence.add(path.coordinate, as: evidence.hasPlace ? .centre : .pin) }
        return evidence
    }

    /// A plus code: a full one decoded to its cell's centre, a short one completed near
    /// `reference` first.
    static func plusCode(_ code: String, near reference: Coordinate?) -> Result<Location, LocationError> {
        if OpenLocationCode.isFull(code), let area = OpenLocationCode.decode(code) {
            return .success(location(area, source: .plusCode))
        }
        guard OpenLocationCode.isShort(code) else {
            return .failure(.badCoordinate(.plusCode, .unexpectedText(code)))
        }
        guard let reference else { return .failure(.needsReference(code: code.uppercased())) }
        guard
            let full = OpenLocationCode.recoverNearest(
                code, latitudeDegrees: reference.latitudeDegrees, longitudeDegrees: reference.longitudeDegrees),
            let area = OpenLocationCode.decode(full)
        else { return .failure(.badCoordinate(.shortPlusCode, .unexpectedText(code))) }
        var location = location(area, source: .shortPlusCode)
        location.completion = Location.Completion(fullCode: full, near: reference)
        return .success(location)
    }

    private static func location(_ area: OpenLocationCode.Area, source: LocationSource) -> Location {
        let centre = area.centre
        return Location(
            coordinate: Coordinate(uncheckedLatitudeDegrees: centre.latitudeDegrees, longitudeDegrees: centre.longitudeDegrees),
            source: source, precisionMeters: area.sizeMeters)
    }
}
