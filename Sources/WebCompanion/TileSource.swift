import PlaceIndex
import Synchronization

/// Map tiles from an MBTiles 1.3 file the user gives (`tiles` in waypoint-web.conf), for a
/// phone without the internet: SQLite with `metadata` and `tiles(zoom_level, tile_column,
/// tile_row, tile_data)`, rows counted from the south (`tile_row = 2^z − 1 − y`). Read only.
public final class TileSource: Sendable {
    /// The largest tile served, bytes: a 256-pixel PNG is tens of kilobytes.
    public static let maximumTileBytes = 1024 * 1024

    /// The zoom levels the file holds.
    public let zoomLevels: ClosedRange<Int>
    private let contentType: String
    private let database: Mutex<SQLiteDatabase>

    /// Why a file is no tile set.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens the MBTiles file at `path`.
    public init(path: String) throws(Failure) {
        let zoomRange: ClosedRange<Int>?
        let database: SQLiteDatabase
        do throws(SQLiteError) {
            database = try SQLiteDatabase(path: path, mode: .readOnly)
            let format = try database.prepare("SELECT value FROM metadata WHERE name = 'format'")
            let type = try format.step() ? format.text(0) : nil
            contentType = switch type {
            case "jpg", "jpeg": "image/jpeg"
            case "webp": "image/webp"
            default: "image/png"
            }
            let zooms = try database.prepare("SELECT min(zoom_level), max(zoom_level) FROM tiles")
            zoomRange = try zooms.step() && zooms.text(0) != nil ? Int(zooms.integer(0))...Int(zooms.integer(1)) : nil
        } catch {
            throw Failure(description: "\(path) is not an MBTiles file: \(error)")
        }
        guard let zoomRange else { throw Failure(description: "\(path) holds no tiles") }
        zoomLevels = zoomRange
        self.database = Mutex(database)
    }

    /// The tile at `/tiles/Z/X/Y`, or nil when the path is not one or the file lacks it.
    func response(for path: String) -> HTTPResponse? {
        let parts = path.split(separator: "/").dropFirst().map { Int($0) }
        guard parts.count == 3, let zoom = parts[0], let x = parts[1], let y = parts[2], zoomLevels.contains(zoom),
            (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y)
        else { return nil }
        let bytes: [UInt8]? = database.withLock { database in
            guard let statement = try? database.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"),
                (try? statement.bind([.integer(Int64(zoom)), .integer(Int64(x)), .integer(Int64((1 << zoom) - 1 - y))])) != nil,
                (try? statement.step()) == true
            else { return nil }
            return statement.blob(0, maximumBytes: Self.maximumTileBytes)
        }
        guard let bytes else { return nil }
        return HTTPResponse(status: 200, headers: [("Content-Type", contentType), ("Cache-Control", "max-age=86400")], body: .bytes(bytes))
    }
}
