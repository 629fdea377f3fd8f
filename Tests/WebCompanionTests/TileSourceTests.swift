import Foundation
import PlaceIndex
import Testing
import WebCompanion

/// Tiles from an MBTiles file, made here as MBTiles 1.3 lays one out: rows counted from the
/// south (`tile_row = 2^z − 1 − y`), so a tile asked for by its XYZ `y` comes from the flipped row.
@Suite(.timeLimit(.minutes(5))) struct TileSourceTests {
    static func file(_ build: (SQLiteDatabase) throws -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString).mbtiles").path
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        try database.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
        try build(database)
        return path
    }

    @Test func aTileIsServedFromItsFlippedRow() throws {
        let path = try Self.file { database in
            try database.execute("INSERT INTO metadata VALUES ('name', 'test'), ('format', 'png')")
            // Zoom 2: y = 1 is stored as row 4 − 1 − 1 = 2.
            try database.execute("INSERT INTO tiles VALUES (2, 3, 2, x'89504e47'), (2, 3, 1, x'00'), (4, 0, 0, x'01')")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tiles = try TileSource(path: path)
        #expect(tiles.zoomLevels == 2...4)
        let setup = try CompanionRouterTests.Setup(tiles: tiles)
        let tile = setup.request("GET", "/tiles/2/3/1")
        #expect(tile.status == 200 && tile.bytes == [0x89, 0x50, 0x4E, 0x47] && tile.header("Content-Type") == "image/png")
        for missing in ["/tiles/2/3/3", "/tiles/9/0/0", "/tiles/2/4/0", "/tiles/2/-1/0", "/tiles/x/0/0", "/tiles/2/3"] {
            #expect(setup.request("GET", missing).status == 404, "\(missing)")
        }
        #expect(setup.request("GET", "/tiles/2/3/1", authorized: false).status == 401, "tiles need a session too")
        let map = setup.request("GET", "/api/map")
        #expect(String(decoding: map.bytes, as: UTF8.self) == #"{"maxzoom":4,"minzoom":2,"tiles":"local"}"#)
    }

    @Test func aFileWithoutTilesIsSaidSo() throws {
        let empty = try Self.file { _ in }
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect { try TileSource(path: empty) } throws: { "\($0)".contains("holds no tiles") }
        #expect { try TileSource(path: "/etc/hostname") } throws: { "\($0)".contains("is not an MBTiles file") }
    }
}
