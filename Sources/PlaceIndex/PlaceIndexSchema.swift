/// The place index's tables. Text is folded (``TextFolding``) before it reaches the word
/// index, so that accents and case never decide a match; the rows keep names as written.
/// `auto_vacuum = FULL`: the full-text index's final merge frees the pages of the segments it
/// merged (a fifth of a 20 000-place file, 3 % of a 3-million-place one), which the commit
/// gives back instead of keeping them free in the file (issue 39).
public enum PlaceIndexSchema {
    /// Bumped whenever a table changes: an index of another version is refused, not misread.
    /// 2: `kind_box`, the places of a kind a category asks for, for category search nearest first.
    public static let version = 2

    static let create = """
        PRAGMA auto_vacuum = FULL;
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE places(
            id INTEGER PRIMARY KEY, name TEXT, kind TEXT, street TEXT, housenumber TEXT, city TEXT,
            lat REAL NOT NULL, lon REAL NOT NULL);
        CREATE VIRTUAL TABLE place_words USING fts5(names, address, kind, content='', tokenize='unicode61', prefix='2 3');
        CREATE VIRTUAL TABLE place_box USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        CREATE VIRTUAL TABLE kind_box USING rtree(id, min_lat, max_lat, min_lon, max_lon, +kind TEXT);
        CREATE TABLE segments(id INTEGER PRIMARY KEY, street TEXT NOT NULL, city TEXT,
            lat1 REAL NOT NULL, lon1 REAL NOT NULL, lat2 REAL NOT NULL, lon2 REAL NOT NULL);
        CREATE VIRTUAL TABLE segment_box USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        """

    /// The `meta` keys.
    enum Key {
        static let version = "schema_version"
        static let source = "source"
        static let timestamp = "osm_timestamp"
        static let places = "places"
        static let addresses = "addresses"
        static let streets = "street_segments"
    }
}
