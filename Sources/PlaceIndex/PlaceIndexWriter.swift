import Places

/// Writes a new place index file from map features, in one transaction and two passes.
///
/// A place's id is its ``SpatialKey``, known from its position, but the features come in the
/// extract's order, and the full-text index is only compact when written in id order (it starts
/// a new segment each time an id is lower than the last). So ``add(_:)`` appends each feature
/// to a staging table in SQLite's temporary database (a file SQLite unlinks as it opens it:
/// nothing is left behind, however the import ends), and ``finish(source:timestamp:progress:)``
/// reads it back sorted by cell (SQLite's external sort, in bounded memory) and writes the
/// tables in id order. Memory stays within SQLite's page caches, whatever the region's size.
public final class PlaceIndexWriter {
    let database: SQLiteDatabase
    private let stage: SQLiteDatabase.Statement
    private let findStreet: SQLiteDatabase.Statement
    private let insertStreet: SQLiteDatabase.Statement
    private let insertStreetWords: SQLiteDatabase.Statement
    private let insertSegment: SQLiteDatabase.Statement
    private let insertSegmentBox: SQLiteDatabase.Statement
    private let insertArea: SQLiteDatabase.Statement
    private let insertAreaBox: SQLiteDatabase.Statement
    /// Kind names and their rows in `kinds`; few (the kinds ``PlaceKind`` names).
    private var kinds: [String: Int64] = [:]
    /// What was written.
    public private(set) var placeCount = 0
    public private(set) var addressCount = 0
    public private(set) var segmentCount = 0
    /// Places left out because their cell already held ``SpatialKey/placesPerCell``.
    public private(set) var crowdedCount = 0
    /// Features staged, for the second pass's progress.
    private var stagedCount = 0

    /// Pages of SQLite's caches, each database: 8 MiB, which keeps a street's or a kind's rows
    /// at hand while the extract is read.
    static let cachePages = 2048

    /// Creates the tables in a new file at `path` (which must not exist).
    public init(path: String) throws(SQLiteError) {
        database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute(PlaceIndexSchema.create)
        try database.execute(
            """
            PRAGMA cache_size = \(Self.cachePages);
            PRAGMA temp.cache_size = \(Self.cachePages);
            CREATE TEMP TABLE staging(cell INTEGER NOT NULL, name TEXT, names TEXT, kind INTEGER, street INTEGER, housenumber TEXT,
                lat INTEGER NOT NULL, lon INTEGER NOT NULL, area INTEGER NOT NULL, operator TEXT);
            BEGIN
            """)
        stage = try database.prepare(
            "INSERT INTO staging(cell, name, names, kind, street, housenumber, lat, lon, area, operator) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        findStreet = try database.prepare("SELECT id FROM streets WHERE name = ? AND city = ?")
        insertStreet = try database.prepare("INSERT INTO streets(name, city) VALUES (?, ?)")
        insertStreetWords = try database.prepare("INSERT INTO street_words(rowid, name, city) VALUES (?, ?, ?)")
        insertSegment = try database.prepare("INSERT INTO segments(street, lat1, lon1, lat2, lon2, level) VALUES (?, ?, ?, ?, ?, ?)")
        insertSegmentBox = try database.prepare("INSERT INTO segment_box VALUES (?, ?, ?, ?, ?)")
        insertArea = try database.prepare("INSERT INTO areas(name, kind, outline) VALUES (?, ?, ?)")
        insertAreaBox = try database.prepare("INSERT INTO area_box VALUES (?, ?, ?, ?, ?)")
    }

    /// Whole units of 1e-7 degree.
    static func units(_ degrees: Double) -> Int64 {
        Int64((degrees / PlaceIndexSchema.degreesPerUnit).rounded())
    }

    /// Stages one feature, and writes a segment row for each stretch of a named street.
    public func add(_ feature: MapFeature) throws(SQLiteError) {
        let text = { (value: String?) in value.map(SQLiteDatabase.Value.text) ?? .null }
        let street = try feature.street.map { street throws(SQLiteError) in try streetID(street, city: feature.city) }
        let kind = try feature.kind.map { kind throws(SQLiteError) in try kindID(kind) }
        let names = feature.names.isEmpty ? nil : TextFolding.folded(feature.names.joined(separator: " "))
        try stage.run([
            .integer(SpatialKey(latitude: feature.latitude, longitude: feature.longitude).cell), text(feature.names.first),
            text(names?.isEmpty == false ? names : nil), kind.map(SQLiteDatabase.Value.integer) ?? .null,
            street.map(SQLiteDatabase.Value.integer) ?? .null, text(feature.housenumber), .integer(Self.units(feature.latitude)),
            .integer(Self.units(feature.longitude)), .integer(feature.isArea ? 1 : 0),
            // The brand of a named place is mostly its name already.
            text(feature.operatorName == feature.names.first ? nil : feature.operatorName),
        ])
        stagedCount += 1
        if let name = feature.names.first, feature.outline.count >= 3 { try addArea(name, feature) }
        guard let name = feature.names.first, feature.line.count > 1 else { return }
        let id = try streetID(name, city: feature.city)
        for (a, b) in zip(feature.line, feature.line.dropFirst()) {
            let (lat1, lon1, lat2, lon2) = (Self.units(a.latitude), Self.units(a.longitude), Self.units(b.latitude), Self.units(b.longitude))
            try insertSegment.run([.integer(id), .integer(lat1), .integer(lon1), .integer(lat2), .integer(lon2), .integer(Int64(feature.level))])
            try insertSegmentBox.run([
                .integer(database.lastInsertedRow), .integer(min(lat1, lat2)), .integer(max(lat1, lat2)), .integer(min(lon1, lon2)),
                .integer(max(lon1, lon2)),
            ])
            segmentCount += 1
        }
    }

    /// An area a walker is in (``MapFeature/outline``): its outline as pairs of 32-bit
    /// latitude and longitude units, little-endian, and its box.
    private func addArea(_ name: String, _ feature: MapFeature) throws(SQLiteError) {
        var outline: [UInt8] = []
        outline.reserveCapacity(feature.outline.count * 8)
        for point in feature.outline {
            for value in [Self.units(point.latitude), Self.units(point.longitude)] {
                withUnsafeBytes(of: Int32(truncatingIfNeeded: value).littleEndian) { outline += $0 }
            }
        }
        try insertArea.run([.text(name), feature.kind.map(SQLiteDatabase.Value.text) ?? .null, .blob(outline)])
        let latitudes = feature.outline.map { Self.units($0.latitude) }
        let longitudes = feature.outline.map { Self.units($0.longitude) }
        try insertAreaBox.run([
            .integer(database.lastInsertedRow), .integer(latitudes.min()!), .integer(latitudes.max()!), .integer(longitudes.min()!),
            .integer(longitudes.max()!),
        ])
    }

    /// The row of `streets` for a street in a town (none: ""), made on first sight.
    private func streetID(_ name: String, city: String?) throws(SQLiteError) -> Int64 {
        let city = city ?? ""
        try findStreet.bind([.text(name), .text(city)])
        if try findStreet.step() {
            defer { findStreet.reset() }
            return findStreet.integer(0)
        }
        try insertStreet.run([.text(name), .text(city)])
        let id = database.lastInsertedRow
        try insertStreetWords.run([.integer(id), .text(TextFolding.folded(name)), .text(TextFolding.folded(city))])
        return id
    }

    /// The row of `kinds` for a kind, made on first sight.
    private func kindID(_ kind: String) throws(SQLiteError) -> Int64 {
        if let id = kinds[kind] { return id }
        let insert = try database.prepare("INSERT INTO kinds(kind) VALUES (?)")
        try insert.run([.text(kind)])
        kinds[kind] = database.lastInsertedRow
        return database.lastInsertedRow
    }

    /// Writes the places in id order, then `meta`, and commits: the file is complete only
    /// after this. `progress` is called now and then with the places written and staged, and
    /// once more with both equal before the last steps; when it returns false, the writing
    /// stops with nothing committed, and this returns false.
    @discardableResult
    public func finish(source: String, timestamp: String, progress: (_ done: Int, _ total: Int) -> Bool = { _, _ in true }) throws(SQLiteError)
        -> Bool
    {
        let insertPlace = try database.prepare(
            "INSERT INTO places(id, name, kind, street, housenumber, lat, lon, area, operator) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let insertWords = try database.prepare("INSERT INTO name_words(rowid, names) VALUES (?, ?)")
        let insertKindBox = try database.prepare("INSERT INTO kind_box VALUES (?, ?, ?, ?, ?, ?)")
        let insertTownBox = try database.prepare("INSERT INTO town_box VALUES (?, ?, ?, ?, ?, ?)")
        // Only the kinds a category asks for: a category search reads nothing else, and most
        // places with a kind are buildings no one asks for by it.
        let asked = Set(kinds.filter { PlaceKind.isAskedFor($0.key) }.values)
        let towns = Set(kinds.filter { PlaceKind.townKinds.contains($0.key) }.values)
        let staged = try database.prepare(
            "SELECT cell, name, names, kind, street, housenumber, lat, lon, area, operator FROM staging ORDER BY cell, rowid")
        var cell: Int64 = -1
        var sequence = 0
        var done = 0
        while try staged.step() {
            done += 1
            if done % 20_000 == 0, !progress(done, stagedCount) {
                staged.reset()
                return false
            }
            let placeCell = staged.integer(0)
            sequence = placeCell == cell ? sequence + 1 : 0
            cell = placeCell
            guard sequence < SpatialKey.placesPerCell else {
                crowdedCount += 1
                continue
            }
            let id = SpatialKey(cell: cell).id(sequence: sequence)
            let name = staged.text(1)
            let kind = staged.isNull(3) ? nil : staged.integer(3)
            let housenumber = staged.text(5)
            let (lat, lon) = (staged.integer(6), staged.integer(7))
            try insertPlace.run([
                .integer(id), name.map(SQLiteDatabase.Value.text) ?? .null, kind.map(SQLiteDatabase.Value.integer) ?? .null,
                staged.isNull(4) ? .null : .integer(staged.integer(4)), housenumber.map(SQLiteDatabase.Value.text) ?? .null,
                .integer(lat), .integer(lon), .integer(staged.integer(8)), staged.text(9).map(SQLiteDatabase.Value.text) ?? .null,
            ])
            if let names = staged.text(2) { try insertWords.run([.integer(id), .text(names)]) }
            if let kind, asked.contains(kind) {
                try insertKindBox.run([.integer(id), .integer(lat), .integer(lat), .integer(lon), .integer(lon), .integer(kind)])
            }
            if let kind, let name, towns.contains(kind) {
                try insertTownBox.run([.integer(id), .integer(lat), .integer(lat), .integer(lon), .integer(lon), .text(name)])
            }
            placeCount += 1
            if housenumber != nil { addressCount += 1 }
        }
        guard progress(stagedCount, stagedCount) else { return false }
        try database.execute("DROP TABLE staging; " + PlaceIndexSchema.addressIndex)
        let insert = try database.prepare("INSERT INTO meta VALUES (?, ?)")
        for (key, value) in [
            (PlaceIndexSchema.Key.version, "\(PlaceIndexSchema.version)"), (PlaceIndexSchema.Key.source, source),
            (PlaceIndexSchema.Key.timestamp, timestamp), (PlaceIndexSchema.Key.places, "\(placeCount)"),
            (PlaceIndexSchema.Key.addresses, "\(addressCount)"), (PlaceIndexSchema.Key.streets, "\(segmentCount)"),
            (PlaceIndexSchema.Key.crowded, "\(crowdedCount)"),
        ] {
            try insert.run([.text(key), .text(value)])
        }
        try database.execute(
            """
            INSERT INTO name_words(name_words) VALUES ('optimize');
            INSERT INTO street_words(street_words) VALUES ('optimize');
            COMMIT
            """)
        return true
    }
}
