import Foundation
import Geodesy
import PlaceIndex
import Places
import Testing

/// An index of another schema, or a file that is no index, is refused with what to do, never
/// misread (issue 27).
@Suite("Place index versions", .timeLimit(.minutes(5)))
struct IndexVersionTests {
    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("places.sqlite").path
    }

    @Test("an index written by this release reads; one of a later schema (a later release) is refused; a file of something else is no index")
    func versions() throws {
        let path = try Self.scratch()
        let writer = try PlaceIndexWriter(path: path)
        try writer.add(MapFeature(name: "Café de Paris", kind: "cafe", latitude: 43.7393, longitude: 7.4275))
        try writer.finish(source: "test.osm.pbf", timestamp: "2026-01-01T00:00:00Z")
        let reader = try PlaceIndexReader(path: path)
        #expect(reader.info.places == 1 && reader.info.source == "test.osm.pbf")
        let near = try reader.search("cafe de paris", near: Coordinate(uncheckedLatitudeDegrees: 43.74, longitudeDegrees: 7.43))
        #expect(near.first?.name == "Café de Paris")

        let later = PlaceIndexSchema.version + 1
        try SQLiteDatabase(path: path, mode: .create).execute("UPDATE meta SET value = '\(later)' WHERE key = 'schema_version'")
        #expect {
            try PlaceIndexReader(path: path)
        } throws: { error in
            guard case .otherVersion(_, let found, let expected)? = error as? PlaceIndexError else { return false }
            return found == later && expected == PlaceIndexSchema.version && "\(error)".contains("import the extract again")
        }

        let other = try Self.scratch()
        try SQLiteDatabase(path: other, mode: .create).execute("CREATE TABLE notes(text TEXT)")
        // A database with no meta table is no index (not any other failure).
        #expect {
            try PlaceIndexReader(path: other)
        } throws: { error in
            guard case .notAnIndex? = error as? PlaceIndexError else { return false }
            return true
        }
        let text = try Self.scratch()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        #expect {
            try PlaceIndexReader(path: text)
        } throws: { error in
            guard case .notAnIndex? = error as? PlaceIndexError else { return false }
            return "\(error)".contains("waypointd map import")
        }
    }
}
