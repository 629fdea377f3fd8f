/// The place index's tables. Text is folded (``TextFolding``) before it reaches a word index,
/// so that accents and case never decide a match; the rows keep names as written.
///
/// Sized for a region (issue 39; bytes a place on a 3.1-million-place city in ARCHITECTURE):
/// - a place's id is its ``SpatialKey``, so the places table and the word index are in map
///   order and a box is a few id ranges: no R*Tree of every place;
/// - coordinates are whole numbers of 1e-7 degree (1 cm; 4 bytes, not 8);
/// - a place's street and town are one number, the row of `streets`; its kind one number, the
///   row of `kinds`;
/// - only names are in `name_words`; an address is found through `street_words` (a row a
///   street) and the index `places_address` (street, number);
/// - the word indexes keep no sizes of their own (`columnsize=0`: nothing ranks by BM25).
/// `auto_vacuum = FULL`: the full-text index's final merge frees the pages of the segments it
/// merged, which the commit gives back instead of keeping them free in the file.
public enum PlaceIndexSchema {
    /// Bumped whenever a table changes: an index of another version is refused, not misread.
    /// 2: `kind_box`, the places of a kind a category asks for, for category search nearest first.
    /// 3: spatial ids, streets and kinds by number, addresses out of the word index, `town_box`.
    public static let version = 3

    /// Degrees a stored coordinate's unit is.
    static let degreesPerUnit = 1e-7

    static let create = """
        PRAGMA auto_vacuum = FULL;
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE kinds(id INTEGER PRIMARY KEY, kind TEXT NOT NULL UNIQUE);
        CREATE TABLE streets(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, UNIQUE(name, city));
        CREATE TABLE places(
            id INTEGER PRIMARY KEY, name TEXT, kind INTEGER, street INTEGER, housenumber TEXT,
            lat INTEGER NOT NULL, lon INTEGER NOT NULL, area INTEGER NOT NULL, operator TEXT);
        CREATE VIRTUAL TABLE name_words USING fts5(names, content='', columnsize=0, tokenize='unicode61', prefix='2 3');
        CREATE VIRTUAL TABLE street_words USING fts5(name, city, content='', columnsize=0, tokenize='unicode61');
        CREATE VIRTUAL TABLE kind_box USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon, +kind INTEGER);
        CREATE VIRTUAL TABLE town_box USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon, +name TEXT);
        CREATE TABLE segments(id INTEGER PRIMARY KEY, street INTEGER NOT NULL,
            lat1 INTEGER NOT NULL, lon1 INTEGER NOT NULL, lat2 INTEGER NOT NULL, lon2 INTEGER NOT NULL, level INTEGER NOT NULL);
        CREATE VIRTUAL TABLE segment_box USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon);
        CREATE TABLE areas(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT, outline BLOB NOT NULL);
        CREATE VIRTUAL TABLE area_box USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon);
        """

    /// Made after the places are in, in one pass rather than row by row.
    static let addressIndex = "CREATE INDEX places_address ON places(street, lower(housenumber)) WHERE housenumber IS NOT NULL"

    /// The `meta` keys.
    enum Key {
        static let version = "schema_version"
        static let source = "source"
        static let timestamp = "osm_timestamp"
        static let places = "places"
        static let addresses = "addresses"
        static let streets = "street_segments"
        static let crowded = "crowded_places"
    }
}
