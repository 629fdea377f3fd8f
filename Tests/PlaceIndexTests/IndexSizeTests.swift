import Geodesy
import PlaceIndex
import Places
import Testing

/// The index file holds no free pages (issue 39: a fifth of a 20 000-place index, 3 % of a
/// 3-million-place one, was pages the full-text index's merge had freed, kept for nothing).
@Suite("Place index size", .timeLimit(.minutes(5)))
struct IndexSizeTests {
    @Test("an index is written with no free page, after the full-text merge")
    func noFreePages() throws {
        let path = try IndexVersionTests.scratch()
        let writer = try PlaceIndexWriter(path: path)
        for index in 0..<20_000 {
            try writer.add(MapFeature(
                name: "Place \(index)", kind: index % 7 == 0 ? "cafe" : nil, street: "Street \(index % 300)", housenumber: "\(index % 97)",
                latitude: 48.8 + Double(index % 200) * 0.0005, longitude: 2.29 + Double(index / 200) * 0.0005))
        }
        try writer.finish(source: "test.osm.pbf", timestamp: "unknown")
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let count = try database.prepare("PRAGMA freelist_count")
        #expect(try count.step())
        #expect(count.integer(0) == 0, "free pages in the file")
        #expect(try PlaceIndexReader(path: path).search("place 19999", near: Coordinate(uncheckedLatitudeDegrees: 48.9, longitudeDegrees: 2.3)).first?.name == "Place 19999")
    }
}
