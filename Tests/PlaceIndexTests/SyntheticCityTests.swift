import Foundation
import Geodesy
import PlaceIndex
import TestSupport
import Testing

/// Search and where on a synthetic city (scripts/synthetic-city.py: 30 000 places, a street
/// grid, addressed buildings, shops whose names repeat), imported as `waypointd map import` does,
/// judged against the generator's own truths, worked out by brute force over what it wrote
/// (issue 39's acceptance, at the size a test can afford; `make bench` asks the same at 3.1
/// million). Simulation, not real data: the real extracts are PlaceSearchTests'.
@Suite("Search and where on a synthetic city, against its truths", .timeLimit(.minutes(5)))
struct SyntheticCityTests {
    struct Query: Decodable {
        struct Truth: Decodable {
            var lat: Double?
            var lon: Double?
            var meters: Double
            var street: String?
            var housenumber: String?
        }
        var kind: String
        var query: String?
        var lat: Double
        var lon: Double
        var truth: Truth
    }

    struct Queries: Decodable { var queries: [Query] }

    nonisolated(unsafe) static var made: (PlaceIndexReader, [Query])?
    static let lock = NSLock()

    static func city() throws -> (PlaceIndexReader, [Query]) {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        _ = try ExternalTool.find("osmium", hint: "apt-get install osmium-tool")
        // Debian's python3, whose pyosmium this is (not a python3 of pyenv's earlier in PATH).
        let python = try ExternalTool.find("python3", hint: "apt-get install python3-pyosmium", extraDirectories: ["/usr/bin"])
        let systemPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? URL(fileURLWithPath: "/usr/bin/python3") : python
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("city-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pbf = directory.appendingPathComponent("city.osm.pbf").path
        let queries = directory.appendingPathComponent("queries.json").path
        let written = try ExternalTool.run(
            systemPython,
            [
                TestData.packageRoot.appendingPathComponent("scripts/synthetic-city.py").path, "--places", "30000", "--out", pbf,
                "--queries", queries, "--queries-per-kind", "100",
            ])
        guard written.status == 0 else { try skip("synthetic-city.py failed (python3-pyosmium?): \(written.standardError)") }
        _ = try MapImport.run(extract: pbf, stateDirectory: directory.path)
        let reader = try PlaceIndexReader(path: directory.appendingPathComponent(MapImport.fileName).path)
        let decoded = try JSONDecoder().decode(Queries.self, from: Data(contentsOf: URL(fileURLWithPath: queries)))
        made = (reader, decoded.queries)
        return (reader, decoded.queries)
    }

    static func meters(_ a: Coordinate, _ latitude: Double, _ longitude: Double) -> Double {
        Geodesic.wgs84.inverse(from: a, to: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)).distanceMeters
    }

    /// The share of `kind`'s queries for which `right` holds, and the first few that failed.
    static func share(_ kind: String, _ right: (Query, Coordinate) throws -> Bool) throws -> (Double, [String]) {
        let (_, queries) = try city()
        let asked = queries.filter { $0.kind == kind }
        try #require(!asked.isEmpty, "no \(kind) queries")
        var wrong: [String] = []
        for query in asked where !(try right(query, Coordinate(uncheckedLatitudeDegrees: query.lat, longitudeDegrees: query.lon))) {
            wrong.append("\(query.query ?? "") near \(query.lat), \(query.lon)")
        }
        return (Double(asked.count - wrong.count) / Double(asked.count), Array(wrong.prefix(5)))
    }

    @Test("a category's first result is no farther than the nearest place of its kind + 5 m, for 95 %")
    func categories() throws {
        let (reader, _) = try Self.city()
        let (share, wrong) = try Self.share("category") { query, near in
            guard let first = try reader.search(query.query ?? "", near: near).first else { return false }
            return first.distanceMeters <= query.truth.meters + 5
        }
        #expect(share >= 0.95, "\(share): \(wrong)")
    }

    @Test("the nearest instance of a repeated name is in the first 3, for 95 %")
    func repeatedNames() throws {
        let (reader, _) = try Self.city()
        let (share, wrong) = try Self.share("name") { query, near in
            try reader.search(query.query ?? "", near: near).prefix(3).contains {
                Self.meters(Coordinate(uncheckedLatitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude), query.truth.lat ?? 0, query.truth.lon ?? 0) <= 1
            }
        }
        #expect(share >= 0.95, "\(share): \(wrong)")
    }

    @Test("an address is found first, for 99 %")
    func addresses() throws {
        let (reader, _) = try Self.city()
        let (share, wrong) = try Self.share("address") { query, near in
            guard let first = try reader.search(query.query ?? "", near: near).first else { return false }
            return Self.meters(Coordinate(uncheckedLatitudeDegrees: first.latitude, longitudeDegrees: first.longitude), query.truth.lat ?? 0, query.truth.lon ?? 0) <= 1
        }
        #expect(share >= 0.99, "\(share): \(wrong)")
    }

    @Test("where names the nearest address, for 95 %")
    func whereAmI() throws {
        let (reader, _) = try Self.city()
        let (share, wrong) = try Self.share("where") { query, near in
            guard let answer = try reader.whereIs(near) else { return false }
            return answer.street == query.truth.street && answer.housenumber == query.truth.housenumber
        }
        #expect(share >= 0.95, "\(share): \(wrong)")
    }
}
