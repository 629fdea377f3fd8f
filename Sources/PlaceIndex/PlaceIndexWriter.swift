import Places

/// Writes a new place index file from map features, in one transaction.
public final class PlaceIndexWriter {
    let database: SQLiteDatabase
    private let insertPlace: SQLiteDatabase.Statement
    private let insertWords: SQLiteDatabase.Statement
    private let insertBox: SQLiteDatabase.Statement
    private let insertKindBox: SQLiteDatabase.Statement
    private let insertSegment: SQLiteDatabase.Statement
    private let insertSegmentBox: SQLiteDatabase.Statement
    /// What was written.
    public private(set) var placeCount = 0
    public private(set) var addressCount = 0
    public private(set) var segmentCount = 0

    /// Creates the tables in a new file at `path` (which must not exist).
    public init(path: String) throws(SQLiteError) {
        database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute(PlaceIndexSchema.create)
        try database.execute("BEGIN")
        insertPlace = try database.prepare(
            "INSERT INTO places(name, kind, street, housenumber, city, lat, lon) VALUES (?, ?, ?, ?, ?, ?, ?)")
        insertWords = try database.prepare("INSERT INTO place_words(rowid, names, address, kind) VALUES (?, ?, ?, ?)")
        insertBox = try database.prepare("INSERT INTO place_box VALUES (?, ?, ?, ?, ?)")
        insertKindBox = try database.prepare("INSERT INTO kind_box VALUES (?, ?, ?, ?, ?, ?)")
        insertSegment = try database.prepare(
            "INSERT INTO segments(street, city, lat1, lon1, lat2, lon2) VALUES (?, ?, ?, ?, ?, ?)")
        insertSegmentBox = try database.prepare("INSERT INTO segment_box VALUES (?, ?, ?, ?, ?)")
    }

    /// Adds one feature: a row for the place (named or with an address), and a segment row for
    /// each stretch of a named street.
    public func add(_ feature: MapFeature) throws(SQLiteError) {
        let text = { (value: String?) in value.map(SQLiteDatabase.Value.text) ?? .null }
        try insertPlace.run([
            text(feature.names.first), text(feature.kind), text(feature.street), text(feature.housenumber), text(feature.city),
            .real(feature.latitude), .real(feature.longitude),
        ])
        let id = database.lastInsertedRow
        let address = [feature.street, feature.housenumber, feature.city].compactMap { $0 }.joined(separator: " ")
        try insertWords.run([
            .integer(id), .text(TextFolding.folded(feature.names.joined(separator: " "))), .text(TextFolding.folded(address)),
            .text(TextFolding.folded(feature.kind ?? "")),
        ])
        try insertBox.run([.integer(id), .real(feature.latitude), .real(feature.latitude), .real(feature.longitude), .real(feature.longitude)])
        // Only the kinds a category asks for: a category search reads nothing else, and most
        // places with a kind are buildings no one asks for by it.
        if let kind = feature.kind, PlaceKind.isAskedFor(kind) {
            try insertKindBox.run([
                .integer(id), .real(feature.latitude), .real(feature.latitude), .real(feature.longitude), .real(feature.longitude), .text(kind),
            ])
        }
        placeCount += 1
        if feature.housenumber != nil { addressCount += 1 }
        guard let street = feature.names.first else { return }
        for (a, b) in zip(feature.line, feature.line.dropFirst()) {
            try insertSegment.run([text(street), text(feature.city), .real(a.latitude), .real(a.longitude), .real(b.latitude), .real(b.longitude)])
            try insertSegmentBox.run([
                .integer(database.lastInsertedRow), .real(min(a.latitude, b.latitude)), .real(max(a.latitude, b.latitude)),
                .real(min(a.longitude, b.longitude)), .real(max(a.longitude, b.longitude)),
            ])
            segmentCount += 1
        }
    }

    /// Writes `meta` and commits: the file is complete only after this.
    public func finish(source: String, timestamp: String) throws(SQLiteError) {
        let insert = try database.prepare("INSERT INTO meta VALUES (?, ?)")
        for (key, value) in [
            (PlaceIndexSchema.Key.version, "\(PlaceIndexSchema.version)"), (PlaceIndexSchema.Key.source, source),
            (PlaceIndexSchema.Key.timestamp, timestamp), (PlaceIndexSchema.Key.places, "\(placeCount)"),
            (PlaceIndexSchema.Key.addresses, "\(addressCount)"), (PlaceIndexSchema.Key.streets, "\(segmentCount)"),
        ] {
            try insert.run([.text(key), .text(value)])
        }
        try database.execute("INSERT INTO place_words(place_words) VALUES ('optimize'); COMMIT")
    }
}
