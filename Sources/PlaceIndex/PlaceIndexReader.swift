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
    /// The index's words, for typo matching: read once when opened.
    private let vocabulary: TypoVocabulary
    /// Kind names by their rows in `kinds`.
    let kinds: [Int64: String]
    /// Statements prepared once and run again (preparing costs as much as a small query): at
    /// most ``maximumStatements``, used under ``lock`` only.
    private var statements: [String: SQLiteDatabase.Statement] = [:]
    /// The statements kept: the queries this file and its extensions ask, a few dozen.
    static let maximumStatements = 32

    /// An address farther than this is not "here": the street is said instead.
    public static let addressRadiusMeters = 40.0
    /// A town, village or quarter farther than this is not named.
    public static let townRadiusMeters = 5000.0
    /// The most rows a word match looks at before ranking, in the whole map or in one id range
    /// of a box.
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
            kinds = try Self.kinds(database)
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

    /// Every word of names and streets (fts5vocab), for typo matching.
    private static func vocabulary(_ database: SQLiteDatabase) throws(SQLiteError) -> TypoVocabulary {
        var words: Set<[UInt8]> = []
        for table in ["name_words", "street_words"] {
            try database.execute("CREATE VIRTUAL TABLE temp.\(table)_vocabulary USING fts5vocab(main, '\(table)', 'row')")
            let terms = try database.prepare("SELECT term FROM temp.\(table)_vocabulary")
            while try terms.step() { words.insert(Array((terms.text(0) ?? "").utf8)) }
        }
        return TypoVocabulary(words.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// The table of kinds, at most ``maximumKinds`` rows.
    private static func kinds(_ database: SQLiteDatabase) throws(SQLiteError) -> [Int64: String] {
        let rows = try database.prepare("SELECT id, kind FROM kinds LIMIT \(maximumKinds)")
        var kinds: [Int64: String] = [:]
        while try rows.step() { kinds[rows.integer(0)] = rows.text(1) }
        return kinds
    }

    /// Kinds read from an index: ``PlaceKind`` names a few hundred.
    static let maximumKinds = 4096

    /// The statement for `sql`, prepared on first use and kept. A statement is never used
    /// while it is being stepped by a caller further up (each query here runs to its end, or
    /// is reset, before another runs it).
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteDatabase.Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        if statements.count < Self.maximumStatements { statements[sql] = statement }
        return statement
    }

    /// Ends every kept statement's read, so that no lock on the file outlives a request.
    func resetStatements() {
        for statement in statements.values { statement.reset() }
    }

    // MARK: - Search

    /// The places `query` names nearest `reference`, best first.
    public func search(_ query: String, near reference: Coordinate, limit: Int = 10) throws(PlaceIndexError) -> [SearchResult] {
        try lock.withLock { _ throws(PlaceIndexError) in
            defer { resetStatements() }
            return try searchLocked(query, near: reference, limit: limit)
        }
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
            if let kinds = PlaceKind.category(words.joined(separator: " ")) {
                results = try category(kinds, near: reference, limit: limit)
                // A place named exactly so ("Office du Tourisme", "Info") is asked for too, a
                // doubling of distance ahead of its neighbours.
                for var named in try exactlyNamed(words, near: reference)
                where !results.contains(where: { $0.latitude == named.latitude && $0.longitude == named.longitude }) {
                    named.score = 10.3 - Self.distancePenalty(named.distanceMeters, weight: 3)
                    results.append(named)
                }
            } else if words.count > 1, words.contains(where: { $0.first?.isNumber == true }) {
                results = try address(words, town: townWords, near: reference)
                // A name with a number in it (`Route 66`), else the street without its number.
                if results.isEmpty { results = try names(words, near: reference, limit: limit) }
                if results.isEmpty { results = try streetWithoutNumber(words, near: reference, limit: limit) }
            } else {
                results = try names(words + townWords, near: reference, limit: limit)
            }
            var ranked = Array(Self.distinct(results.sorted { ($0.score, -$0.distanceMeters) > ($1.score, -$1.distanceMeters) }).prefix(limit))
            // Results without an address are told apart by the street they are on (issue 40:
            // six ATMs read "atm", two bakeries "a bakery, 692 km southeast").
            for index in ranked.indices where ranked[index].address == nil && !(ranked[index].kind.map(Self.lineKinds.contains) ?? false) {
                let point = Coordinate(uncheckedLatitudeDegrees: ranked[index].latitude, longitudeDegrees: ranked[index].longitude)
                ranked[index].nearStreet = try nearestStreet(point, radiusMeters: Self.nearStreetMeters, lowestLevel: 0)?.street
            }
            return ranked
        } catch {
            throw .unreadable(path: database.path, error)
        }
    }

    /// A place's columns, with its street's name and town: what ``row(_:from:)`` reads.
    static let placeColumns = """
        p.id, p.name, p.kind, s.name, p.housenumber, s.city, p.lat, p.lon, p.area, p.operator FROM places AS p
        LEFT JOIN streets AS s ON s.id = p.street
        """

    /// How near a street must be to name where a result without an address is.
    public static let nearStreetMeters = 150.0

    /// The half side of a search's first box, metres.
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
    private func category(_ names: Set<String>, near reference: Coordinate, limit: Int) throws(SQLiteError) -> [SearchResult] {
        let codes = kinds.filter { names.contains($0.value) }.keys.sorted()
        guard !codes.isEmpty else { return [] }
        let statement = try statement(
            "SELECT \(Self.placeColumns) WHERE p.id IN "
                + "(SELECT id FROM kind_box WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ? AND kind IN ("
                + codes.map { _ in "?" }.joined(separator: ", ") + "))")
        var results: [SearchResult] = []
        try grow(around: reference) { box throws(SQLiteError) in
            try statement.bind(box.units.map(SQLiteDatabase.Value.integer) + codes.map(SQLiteDatabase.Value.integer))
            results = []
            while try statement.step() {
                var result = row(statement, from: reference)
                result.score = 10 - Self.distancePenalty(result.distanceMeters, weight: 3)
                results.append(result)
            }
            let inside = results.filter { $0.distanceMeters <= box.halfSideMeters }
            guard inside.count >= 2 * limit else { return false }
            results = inside
            return true
        }
        return results
    }

    /// A box around a point, as ``box(around:halfSideMeters:)`` gives it.
    struct Box {
        var halfSideMeters: Double
        var south, north, west, east: Double
        var isWorld: Bool

        /// South, north, west, east in the index's units, as the R*Trees' columns compare them.
        var units: [Int64] { [south, north, west, east].map(PlaceIndexWriter.units) }
        /// The row id ranges of ``SpatialKey`` that hold it.
        var ranges: [ClosedRange<Int64>] { SpatialKey.ranges(south: south, north: north, west: west, east: east) }
    }

    /// Calls `body` with boxes around `reference`, from ``firstBoxMeters`` doubling, until it
    /// says it has enough or the box holds the world.
    private func grow(around reference: Coordinate, _ body: (Box) throws(SQLiteError) -> Bool) throws(SQLiteError) {
        var halfSide = Self.firstBoxMeters
        while true {
            let box = Self.box(around: reference, halfSideMeters: halfSide)
            if try body(box) || box.isWorld { return }
            halfSide *= 2
        }
    }

    /// A box around `centre` that holds the circle of `halfSideMeters` around it (degrees
    /// reckoned with the fewest metres a degree has: 110 km of latitude, and of longitude at
    /// the box's edge nearer the pole), clamped to the world.
    static func box(around centre: Coordinate, halfSideMeters: Double) -> Box {
        let latitudeDelta = halfSideMeters / 110_000
        let south = max(-90, centre.latitudeDegrees - latitudeDelta)
        let north = min(90, centre.latitudeDegrees + latitudeDelta)
        let polewards = max(abs(south), abs(north))
        let metresPerDegree = 111_320 * cos(polewards * .pi / 180)
        let longitudeDelta = polewards >= 89.9 ? 360 : halfSideMeters / metresPerDegree
        let band = Box(halfSideMeters: halfSideMeters, south: south, north: north, west: -180, east: 180, isWorld: south <= -90 && north >= 90)
        guard longitudeDelta < 180 else { return band }
        // A box across the antimeridian: the whole band of longitude, rather than two boxes.
        let west = centre.longitudeDegrees - longitudeDelta
        let east = centre.longitudeDegrees + longitudeDelta
        if west < -180 || east > 180 { return band }
        return Box(halfSideMeters: halfSideMeters, south: south, north: north, west: west, east: east, isWorld: false)
    }

    /// Addresses whose street and number hold every word, in either order (`Landstrasse 12`,
    /// `12 Landstrasse`; the number may be `4-6` or `5b`, the street hold numbers of its own).
    ///
    /// The streets come from `street_words` (the words that are not numbers, the last a prefix,
    /// any with its typos), the numbers from `places_address`: a seek a street and number.
    private func address(_ words: [String], town: [String], near reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        let streetWords = words.filter { $0.first?.isNumber != true }
        guard !streetWords.isEmpty else { return [] }
        // Numbers as typed: each word that starts with a digit, and runs of them joined as
        // house numbers join them (`4-6`, `4/6`, `12 a`).
        let numbers = words.filter { $0.first?.isNumber == true }
        var housenumbers = Set(numbers)
        for (a, b) in zip(words, words.dropFirst()) where a.first?.isNumber == true {
            for joint in ["-", "/", " ", ""] { housenumbers.insert(a + joint + b) }
        }
        let match = Self.matchAll(streetWords, typos: typos)
        let statement = try statement(
            "SELECT \(Self.placeColumns) WHERE p.street IN (SELECT rowid FROM street_words WHERE street_words MATCH ? LIMIT "
                + "\(Self.maximumCandidates)) AND lower(p.housenumber) IN (" + housenumbers.map { _ in "?" }.joined(separator: ", ")
                + ") AND p.housenumber IS NOT NULL")
        try statement.bind([.text(match)] + housenumbers.sorted().map(SQLiteDatabase.Value.text))
        var results: [SearchResult] = []
        while try statement.step() {
            var result = row(statement, from: reference)
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

    /// Places named exactly `words`, when the words are in at most ``maximumCandidates`` names
    /// (else the name is too common to be what a category word asks for, and the category
    /// answers): one full-text match, no prefix, no typo.
    private func exactlyNamed(_ words: [String], near reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        let ids = try nameIDs(words.map { "\"" + $0.replacingQuotes + "\"" }.joined(separator: " AND "))
        guard ids.count <= Self.maximumCandidates else { return [] }
        let typed = words.joined(separator: " ")
        return try places(ids, from: reference).filter { TextFolding.folded($0.name ?? "") == typed }
    }

    /// The ids of the places whose names a full-text match finds, at most one more than
    /// ``maximumCandidates`` (which tells "all of them" from "too many").
    private func nameIDs(_ match: String) throws(SQLiteError) -> [Int64] {
        let all = try statement("SELECT rowid FROM name_words WHERE name_words MATCH ? LIMIT \(Self.maximumCandidates + 1)")
        try all.bind([.text(match)])
        var ids: [Int64] = []
        while try all.step() { ids.append(all.integer(0)) }
        return ids
    }

    /// The places of these ids, with distance and direction from `reference`.
    private func places(_ ids: [Int64], from reference: Coordinate) throws(SQLiteError) -> [SearchResult] {
        let place = try statement("SELECT \(Self.placeColumns) WHERE p.id = ?")
        var results: [SearchResult] = []
        for id in ids {
            try place.bind([.integer(id)])
            if try place.step() { results.append(row(place, from: reference)) }
        }
        return results
    }

    /// The most addresses of a street read for the numbers nearest one the map lacks.
    static let maximumStreetAddresses = 2000

    /// An address whose number the map lacks (`Boulevard des Moulins 20`): the street, then the
    /// three numbers on it nearest the one typed (issue 40: it found nothing, while the street
    /// alone was 197 m away).
    private func streetWithoutNumber(_ words: [String], near reference: Coordinate, limit: Int) throws(SQLiteError) -> [SearchResult] {
        let streetWords = words.filter { $0.first?.isNumber != true }
        // The last number typed is the house's (`Quai Antoine 1er 3`).
        guard !streetWords.isEmpty, let typed = words.reversed().lazy.compactMap(Self.leadingNumber).first else { return [] }
        var results = try names(streetWords, near: reference, limit: limit).filter { $0.kind.map(Self.lineKinds.contains) == true }
        guard !results.isEmpty else { return [] }
        for index in results.indices { results[index].score += 30 }
        let statement = try statement(
            "SELECT \(Self.placeColumns) WHERE p.street IN (SELECT rowid FROM street_words WHERE street_words MATCH ? LIMIT "
                + "\(Self.maximumCandidates)) AND p.housenumber IS NOT NULL LIMIT \(Self.maximumStreetAddresses)")
        try statement.bind([.text(Self.matchAll(streetWords, typos: typos))])
        var numbers: [SearchResult] = []
        while try statement.step() {
            var result = row(statement, from: reference)
            guard let number = result.housenumber.flatMap(Self.leadingNumber) else { continue }
            result.score = 20 - Double(abs(number - typed)) / 1000 - Self.distancePenalty(result.distanceMeters, weight: 0.01)
            numbers.append(result)
        }
        return results + numbers.sorted { $0.score > $1.score }.prefix(3)
    }

    /// The number a house number starts with (`12` of `12b`, `4` of `4-6`).
    static func leadingNumber(_ text: String) -> Int? {
        Int(String(text.prefix { $0.isASCII && $0.isNumber }.prefix(9)))
    }

    /// Places whose names hold every word (the last as a prefix, any with its allowed typos).
    private func names(_ words: [String], near reference: Coordinate, limit: Int) throws(SQLiteError) -> [SearchResult] {
        let typed = words.joined(separator: " ")
        return try nameMatches(Self.matchAll(words, typos: typos), near: reference, limit: limit).map { candidate in
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
            // A word that is the place's kind, or a typo of it, weighs in: "casino" asks for the
            // casino before a shop named Casino (issue 40).
            let kindWords = TextFolding.words(result.kind ?? "")
            let kindMatches = words.contains { word in kindWords.contains { Self.isTypo(word, of: $0) } }
            result.score = (quality + (kindMatches ? 1.5 : 0)) * 2 - Self.distancePenalty(result.distanceMeters, weight: 1)
            return result
        }
    }

    /// The places a full-text match of names finds, with distance and direction from
    /// `reference`: every one when there are at most ``maximumCandidates``; else the nearest,
    /// from boxes that double around `reference` (each a few id ranges, at most
    /// ``maximumCandidates`` a range) until the circle inside one holds twice `limit`. The work
    /// is the match's list once, then its entries in the boxes: it grows with the answer's
    /// neighbourhood, whatever the places' ids.
    private func nameMatches(_ match: String, near reference: Coordinate, limit: Int) throws(SQLiteError) -> [SearchResult] {
        var ids = try nameIDs(match)
        guard ids.count > Self.maximumCandidates else { return try places(ids, from: reference) }
        let inRange = try statement(
            "SELECT rowid FROM name_words WHERE name_words MATCH ? AND rowid BETWEEN ? AND ? LIMIT \(Self.maximumCandidates)")
        var results: [SearchResult] = []
        try grow(around: reference) { box throws(SQLiteError) in
            ids = []
            for range in box.ranges {
                try inRange.bind([.text(match), .integer(range.lowerBound), .integer(range.upperBound)])
                while try inRange.step() { ids.append(inRange.integer(0)) }
            }
            results = try places(ids, from: reference)
            return results.filter { $0.distanceMeters <= box.halfSideMeters }.count >= 2 * limit
        }
        return results
    }

    /// Columns read in ``placeColumns``' order.
    private func row(_ statement: SQLiteDatabase.Statement, from reference: Coordinate) -> SearchResult {
        let latitude = Double(statement.integer(6)) * PlaceIndexSchema.degreesPerUnit
        let longitude = Double(statement.integer(7)) * PlaceIndexSchema.degreesPerUnit
        let inverse = Geodesic.wgs84.inverse(
            from: reference, to: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude))
        let street = statement.text(3)
        let number = statement.text(4)
        let city = statement.text(5).flatMap { $0.isEmpty ? nil : $0 }
        var address = [street, number].compactMap { $0 }.joined(separator: " ")
        if let city { address += address.isEmpty ? city : ", " + city }
        return SearchResult(
            name: statement.text(1), kind: statement.isNull(2) ? nil : kinds[statement.integer(2)], address: address.isEmpty ? nil : address,
            housenumber: number, latitude: latitude, longitude: longitude, distanceMeters: inverse.distanceMeters,
            bearingDegrees: Angle.normalized(inverse.initialAzimuthDegrees), score: 0, isArea: statement.integer(8) != 0,
            operatorName: statement.text(9))
    }

    /// Whether `word` is `term`, or within the typos a word of its length allows (``typos(_:)``).
    static func isTypo(_ word: String, of term: String) -> Bool {
        if word == term { return true }
        let allowed = allowedTypos(word)
        return allowed > 0 && EditDistance.between(Array(word.utf8), Array(term.utf8), limit: allowed) <= allowed
    }

    /// None under 4 letters, one up to 7, two from 8 (the rule of Organic Maps' search), none
    /// in numbers.
    static func allowedTypos(_ word: String) -> Int {
        let count = word.utf8.count
        return count < 4 || word.first?.isNumber == true ? 0 : count < 8 ? 1 : 2
    }

    /// Index words within the typos a word of its length allows (``allowedTypos(_:)``).
    private func typos(_ word: String) -> [[UInt8]] {
        vocabulary.near(Array(word.utf8), allowed: Self.allowedTypos(word))
    }

    /// Every word, the last as a prefix, each or one of its typos, in FTS5's query language.
    private static func matchAll(_ words: [String], typos: (String) -> [[UInt8]]) -> String {
        words.enumerated().map { index, word in
            alternatives(word, prefix: index == words.count - 1, typos: typos(word))
        }.joined(separator: " AND ")
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

    /// Kinds drawn as lines, whose ways share a name for one street: a street split into
    /// ways at every crossing is one result, the nearest.
    static let lineKinds: Set<String> = ["street", "footway", "path", "steps", "cycleway", "track", "motorway"]
    /// How near two ways of one street are taken as one (half a kilometre).
    static let sameStreetDegrees = 0.005
    /// How near a node and an area with the same name and kind are taken as one object (a shop
    /// drawn both as a point and as its building, a park and its name's node): the area's
    /// point is one inside it, not where the node is.
    static let sameObjectMeters = 150.0

    /// One result per object: the ways of one street, a named node and an area of the same
    /// name and kind (within ``sameObjectMeters``), two areas of one name whose points inside
    /// are the same. Never two nodes, never by name alone, never
    /// an unnamed place: each unnamed ATM is one, and so is each of two stops of one name on
    /// the two sides of a street (issue 40).
    private static func distinct(_ results: [SearchResult]) -> [SearchResult] {
        var kept: [SearchResult] = []
        for result in results
        where !kept.contains(where: { other in
            guard let name = result.name, other.name == name else { return false }
            // Two areas of one name drawn over one another (a town and its boundary): one
            // point inside both, one place to a walker ("Monaco (town)" and "Monaco", 33 m).
            if other.isArea, result.isArea, other.latitude == result.latitude, other.longitude == result.longitude { return true }
            guard other.kind == result.kind else { return false }
            if let kind = result.kind, lineKinds.contains(kind) {
                return abs(other.latitude - result.latitude) < sameStreetDegrees && abs(other.longitude - result.longitude) < sameStreetDegrees
            }
            return other.isArea != result.isArea
                && Geodesic.wgs84.inverse(
                    from: Coordinate(uncheckedLatitudeDegrees: other.latitude, longitudeDegrees: other.longitude),
                    to: Coordinate(uncheckedLatitudeDegrees: result.latitude, longitudeDegrees: result.longitude)
                ).distanceMeters < sameObjectMeters
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
