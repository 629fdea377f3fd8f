/// Why the place index could not answer.
public enum PlaceIndexError: Error, CustomStringConvertible {
    /// The file is not a place index (no `meta` table or no version in it).
    case notAnIndex(path: String)
    /// An index of another schema version: made by another release.
    case otherVersion(path: String, found: Int, expected: Int)
    /// SQLite could not read it.
    case unreadable(path: String, SQLiteError)

    public var description: String {
        switch self {
        case .notAnIndex(let path):
            "\(path) is not a place index; run: waypointd map import FILE.osm.pbf"
        case .otherVersion(let path, let found, let expected):
            "\(path) is a place index of schema \(found), and this release reads schema \(expected); "
                + "import the extract again: waypointd map import FILE.osm.pbf"
        case .unreadable(let path, let error):
            "cannot read the place index \(path): \(error.message)"
        }
    }
}
