import CommandLineSupport
import Geodesy
import Places
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Answers searches and "where am I" from a place index file, opened read-only. One query at
/// a time: the connection is SQLite's single-thread kind, behind a lock.
public final class PlaceIndexReader: @unchecked Sendable {
    let database: SQLiteDatabase
    /// Held for each query.
    let lock = Mutex(())
    /// What the index holds.
    public let info: PlaceIndexInfo
    /// The index's words, folded, as bytes, for typo matching: read once when opened.
    private let vocabulary: [[UInt8]]

    /// An address farther than this is not "here": the street is said instead.
    public static let addressRadiusMeters = 40.0
    /// A town, village or quarter farther than this is not named.
    public static let townRadiusMeters = 5000.0
    /// The most rows a word match looks at before ranking.
    public static let maximumCandidates = 500
    /// The most results a search returns.
    public static let maximumResults = 50

    /// Opens `path`; refuses an index of another schema version, or a file that is none.
    public init(path: String) throws(PlaceIndexError) {
        let meta: [String: String]
        let hasMeta: Bool
        do throws(SQLiteError) {
            database = try SQLiteDatabase(path: path, mode: .readOnly)
            hasMeta = try database.hasTable("meta")
            meta = hasMeta ? try Self.meta(database) : [:]
        } catch {
            // No SQLite file at all: a file of something else.
            if error.isNotADatabase { throw .notAnIndex(path: path) }
            throw .unreadable(path: path, error)
        }
        guard hasMeta else { throw .notAnIndex(path: path) }
        guard let version = meta[PlaceIndexSchema.Key.version].flatMap(Int.init) else { throw .notAnIndex(path: path) }
        guard version == PlaceIndexSchema.version else {
            throw .otherVersion(path: path, found: version, expected: PlaceIndexSchema.version)
        }
        info = Self.info(meta)
        do throws(SQLiteError) {
            vocabulary = try Self.vocabulary(database)
        } catch {
            throw .unreadable(path: path, error)
        }
    }

    /// What the index at `path` holds, read from its `meta` table alone (no word list loaded):
    /// cheap enough for every STATUS.
    public static func info(path: String) throws(PlaceIndexError) -> PlaceIndexInfo {
        let meta: [String: String]
        do throws(SQLiteError) {
            meta = try Self.meta(try SQLiteDatabase(path: path, mode: .readOnly))
        } catch {
            throw .unreadable(path: path, error)
        }
        guard meta[PlaceIndexSchema.Key.version].flatMap(Int.init) == PlaceIndexSchema.version else {
            throw .notAnIndex(path: path)
        }
        return Self.info(meta)
    }

    private static func info(_ meta: [String: String]) -> PlaceIndexInfo {
        PlaceIndexInfo(
            source: meta[PlaceIndexSchema.Key.source] ?? "unknown", timestamp: meta[PlaceIndexSchema.Key.timestamp] ?? "unknown",
            places: Int(meta[PlaceIndexSchema.Key.places] ?? "") ?? 0, addresses: Int(meta[PlaceIndexSchema.Key.addresses] ?? "") ?? 0,
            streetSegments: Int(meta[PlaceIndexSchema.Key.streets] ?? "") ?? 0)
    }

    private static func meta(_ database: SQLiteDatabase) throws(SQLiteError) -> [String: String] {
        var meta: [String: String] = [:]
        let rows = try database.prepare("SELECT key, value FROM meta")
        while try rows.step() { meta[rows.text(0) ?? ""] = rows.text(1) }
        return meta
    }

    /// Every word of the index (fts5vocab), for typo matching.
    private static func vocabulary(_ database: SQLiteDatabase) throws(SQLiteError) -> [[UInt8]] {
        try database.execute("CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, 'place_words', 'row')")
        let terms = try database.prepare("SELECT term FROM temp.vocabulary")
        var vocabulary: [[UInt8]] = []
        while try terms.step() { vocabulary.append(Array((terms.text(0) ?? "").utf8)) }
        return vocabulary
    }

    // MARK: - Search

    /// The places `query` names nearest `reference`, best first.
    public func search(_ query: String, near reference: Coordinate, limit: Int = 10) throws(PlaceIndexError) -> [SearchResult] {
        try lock.withLock { _ throws(PlaceIndexError) in try searchLocked(query, near: reference, limit: limit) }
    }

    private func searchLocked(_ query: String, near reference: Coordinate, limit: Int) throws(PlaceIndexError) -> [SearchResult] {
        let limit = max(1, min(limit, Self.maximumResults))
        // "…, Town": the town only helps; the rest is what is searched for.
        let parts = query.split(separator: ",", maxSplits: 1)
        let words = TextFolding.words(parts.first ?? "")
        let townWords = parts.count > 1 ? TextFolding.words(parts[1]) : []
        guard !words.isEmpty else { return [] }
        do throws(SQLiteError) {
            var results: [SearchResult]
            if let kinds = PlaceKind.queries[words.joined(separator: " ")] {
                results = try category(kinds, near: reference, limit: limit)
            } else if words.count > 1, words.contains(where: { $0.first?.isNumber == true }) {
                results = try address(words, town: townWords, near: reference)
                if results.isEmpty { results = try names(words, near: reference) }
            } else {
                results = try names(words + townWords, near: reference)
            }
            return Array(Self.distinct(results.sorted { ($0.score, -$0.distanceMeters) > ($1.score, -$1.distanceMeters) }).prefix(limit))
        } catch {
            throw .unreadable(path: database.path, error)
        }
    }

    /// The half side of a category search's first box, metres.
    static let firstBoxMeters = 250.0

    /// Places of these kinds, nearest first: the distance is all that ranks them.
    ///
    /// Found through `kind_box` (an R*Tree of the places of every kind a category asks for)
    /// in boxes around `reference` that double until the circle inside one holds twice `limit`
    /// of them (room for the merging of duplicates) or the box holds the whole world: places
    /// outside that circle may be nearer than some inside the box, never than those inside the
    /// circle. The work is an R*Tree search a box (log n) and every place of an asked-for kind in
    /// the last box (the kind is checked after the R*Tree's search): it grows with the
    /// neighbourhood the answer needs, not with the map. A kind the map lacks costs the whole
    /// table once the box is the world.
    private func category(_ kinds: Set<String>, near reference: Coordinate, limit: Int) throws(SQLiteError) -> [SearchResult] {
        let statement = try database.prepare(
            """
            SELECT p.id, p.name, p.kind, p.street, p.housenumber, p.city, p.lat, p.lon
            FROM kind_box AS b CROSS JOIN places AS p ON p.id = b.id
            WHERE b.max_lat >= ? AND b.min_lat <= ? AND b.max_lon >= ? AND b.min_lon <= ? AND b.kind IN (
            """ + kinds.map { _ in "?" }.joined(separator: ", ") + ")")
        var halfSide = Self.firstBoxMeters
        while true {
            let box = Self.box(around: reference, halfSideMeters: halfSide)
            try statement.bind([.real(box.south), .real(box.north), .real(box.west), .real(box.east)] + kinds.sorted().map(SQLiteDatabase.Value.text))
            var results: [SearchResult] = []
            while try statement.step() {
                var result = row(statement, from: reference)
                result.score = 10 - Self.distancePenalty(result.distanceMeters, weight: 3)
                results.append(result)
            }
            let inside = results.filter { $0.distanceMeters <= halfSide }
            if inside.count >= 2 * limit { return inside }
            if box.isWorld { return results }
            halfSide *= 2
        }
    }

    /// A box around `centre` that holds the circle of `halfSideMeters` around it (degrees
    /// reckoned with the fewest metres a degree has: 110 km of latitude, and of longitude at
    /// the box's edge nearer the pole), clamped to the world.
    static func box(around centre: Coordinate, halfSideMeters: Double) -> (south: Double, north: Double, west: Double, east: Double, isWorld: Bool) {
        let latitudeDelta = halfSideMeters / 110_000
        let south = max(-90, centre.latitudeDegrees - latitudeDelta)
        let north = min(90, centre.latitudeDegrees + latitudeDelta)
        let polewards = max(abs(south), abs(north))
        let metresPerDegree = 111_320 * cos(polewards * .pi / 180)
        let longitudeDelta = polewards >= 89.9 ? 360 : halfSideMeters / metresPerDegree
        guard longitudeDelta < 180 else { return (south, north, -180, 180, south <= -90 && north >= 90) }
        // A box across the antimeridian: the whole band of longitude, rather than two boxes.
        let west = centre.longitudeDegrees - longitudeDelta
        let east = centre.longitudeDegrees + longitudeDelta
        if west < -180 || east > 180 { return (south, north, -180, 180, south <= -90 && north >= 90) }
        return (south, north, west, east, false)
    }

    /// Addresses whose street and number hold every word, in either order (`Landstrasse 12`,
    /// `12 Landstrasse`; the number may be `4-6` or `5b`, the street hold numbers of its own).
    private func address(_ words: [String], town: [String], near reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        // The town is not required (many addresses carry none); one that matches ranks higher.
        let match = "address : (" + words.enumerated().map { index, word in
            Self.alternatives(word, prefix: index == words.count - 1, typos: typos(word))
        }.joined(separator: " AND ") + ")"
        var results: [SearchResult] = []
        for var result in try matches(match, near: reference) {
            guard let housenumber = result.housenumber else { continue }
            let numberWords = TextFolding.words(housenumber)
            guard !numberWords.isEmpty, numberWords.allSatisfy(words.contains) else { continue }
            let addressWords = TextFolding.words(result.address ?? "")
            let exact = words.allSatisfy(addressWords.contains)
            let townMatches = !town.isEmpty && town.allSatisfy(addressWords.contains)
            result.score = 20 + (exact ? 1 : 0) + (townMatches ? 1 : 0) - Self.distancePenalty(result.distanceMeters, weight: 1)
            results.append(result)
        }
        return results
    }

    /// Places whose names hold every word (the last as a prefix, any with its allowed typos).
    private func names(_ words: [String], near reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        let match = "names : (" + words.enumerated().map { index, word in
            Self.alternatives(word, prefix: index == words.count - 1, typos: typos(word))
        }.joined(separator: " AND ") + ")"
        let typed = words.joined(separator: " ")
        return try matches(match, near: reference).map { candidate in
            var result = candidate
            let name = TextFolding.words(result.name ?? "")
            let full = name.joined(separator: " ")
            let quality: Double
            if full == typed {
                quality = 4
            } else if full.hasPrefix(typed) {
                quality = 3
            } else if words.allSatisfy(name.contains) {
                quality = 2.5
            } else if words.allSatisfy({ word in name.contains { $0.hasPrefix(word) } }) {
                quality = 2
            } else {
                // A typo (or an alternative name) matched: the fewer words the name shares as typed, the lower.
                let shared = words.filter { word in name.contains { $0.hasPrefix(word) } }.count
                quality = 1 + 0.5 * Double(shared) / Double(words.count)
            }
            result.score = quality * 2 - Self.distancePenalty(result.distanceMeters, weight: 1)
            return result
        }
    }

    /// The rows a full-text match finds, at most ``maximumCandidates``, with distance and
    /// direction from `reference`.
    private func matches(_ match: String, near reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        let statement = try database.prepare(
            """
            SELECT id, name, kind, street, housenumber, city, lat, lon FROM places
            WHERE id IN (SELECT rowid FROM place_words WHERE place_words MATCH ? LIMIT \(Self.maximumCandidates))
            """)
        try statement.bind([.text(match)])
        var results: [SearchResult] = []
        while try statement.step() { results.append(row(statement, from: reference)) }
        return results
    }

    private func row(_ statement: SQLiteDatabase.Statement, from reference: Coordinate) -> SearchResult {
        let latitude = statement.real(6)
        let longitude = statement.real(7)
        let inverse = Geodesic.wgs84.inverse(
            from: reference, to: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude))
        let street = statement.text(3)
        let number = statement.text(4)
        let city = statement.text(5)
        var address = [street, number].compactMap { $0 }.joined(separator: " ")
        if let city { address += address.isEmpty ? city : ", " + city }
        return SearchResult(
            name: statement.text(1), kind: statement.text(2), address: address.isEmpty ? nil : address, housenumber: number,
            latitude: latitude, longitude: longitude, distanceMeters: inverse.distanceMeters,
            bearingDegrees: Angle.normalized(inverse.initialAzimuthDegrees), score: 0)
    }

    /// Index words within the typos a word of its length allows: none under 4 letters, one up
    /// to 7, two from 8 (the rule of Organic Maps' search), none in numbers.
    private func typos(_ word: String) -> [[UInt8]] {
        let bytes = Array(word.utf8)
        let allowed = bytes.count < 4 || word.first?.isNumber == true ? 0 : bytes.count < 8 ? 1 : 2
        guard allowed > 0 else { return [] }
        return vocabulary.filter { term in
            abs(term.count - bytes.count) <= allowed && term != bytes
                && EditDistance.between(term, bytes, limit: allowed) <= allowed
        }.prefix(20).map { $0 }
    }

    /// `("word" OR "word"* OR "wrod")` in FTS5's query language.
    private static func alternatives(_ word: String, prefix: Bool, typos: [[UInt8]]) -> String {
        let quoted = { (text: String) in "\"" + text.replacingQuotes + "\"" }
        var terms = [quoted(word) + (prefix ? "*" : "")]
        terms += typos.map { quoted(String(decoding: $0, as: UTF8.self)) }
        return "(" + terms.joined(separator: " OR ") + ")"
    }

    /// How much distance lowers a score: a tenth of `weight` a doubling past 100 m.
    static func distancePenalty(_ meters: Double, weight: Double) -> Double {
        weight * log2(1 + meters / 100) / 10
    }

    /// One result per place: a street split into several ways is one street, the nearest.
    private static func distinct(_ results: [SearchResult]) -> [SearchResult] {
        var kept: [SearchResult] = []
        for result in results
        where !kept.contains(where: {
            $0.name == result.name && $0.kind == result.kind && $0.address == result.address
                && abs($0.latitude - result.latitude) < 0.005 && abs($0.longitude - result.longitude) < 0.005
        }) {
            kept.append(result)
        }
        return kept
    }
}

extension String {
    /// `"` doubled, as FTS5 strings write it.
    var replacingQuotes: String {
        String(decoding: utf8.flatMap { $0 == UInt8(ascii: "\"") ? [$0, $0] : [$0] }, as: UTF8.self)
    }
}
