import ControlProtocol
import Testing

@testable import PlaceIndex
@testable import Places
import TextFormats

/// The import skips a GeoJSON line unparsed unless it may hold a feature the index keeps
/// (`MapImport.mayKeep`). Whatever `MapFeature` keeps must get through: each way it keeps a
/// feature (a name of any kind, an address, a kind a category asks for) is tried here on a line
/// holding only that tag, with `MapFeature` itself as the judge of what is kept.
@Suite(.timeLimit(.minutes(5))) struct ImportFilterTests {
    static func line(_ tags: [String: String]) -> String {
        let properties = tags.map { "\(JSONWriter.quoted($0.key)):\(JSONWriter.quoted($0.value))" }.sorted().joined(separator: ",")
        return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[7.42,43.73]},"properties":{"# + properties + "}}"
    }

    static func kept(_ tags: [String: String]) -> Bool {
        MapFeature(geoJSON: try! JSONParser.parse(Array(line(tags).utf8))) != nil
    }

    @Test func everyFeatureTheIndexKeepsGetsThroughTheFilter() {
        var tried = 0
        var lost: [String] = []
        func check(_ tags: [String: String]) {
            guard Self.kept(tags) else { return }
            tried += 1
            if !MapImport.mayKeep(Array(Self.line(tags).utf8)[...]) { lost.append("\(tags)") }
        }
        for key in ["name", "name:fr"] + MapFeature.otherNameKeys { check([key: "Chez Paul"]) }
        check(["addr:street": "Rue Grimaldi", "addr:housenumber": "3"])
        check(["addr:place": "Fontvieille", "addr:housenumber": "3"])
        // Every tag value a kind could come from: each asked kind as a value, and the values
        // PlaceKind names, under every key PlaceKind reads.
        let values = Set(PlaceKind.askedKinds.map { $0.replacingOccurrences(of: " ", with: "_") })
            .union(PlaceKind.names.keys.map { String($0.split(separator: "=")[1]) }).union(["yes"])
        for key in PlaceKind.keys {
            for value in values { check([key: value]) }
        }
        #expect(tried > 50, "\(tried) kept features tried")
        #expect(lost.isEmpty, "kept by MapFeature, skipped by the import's filter: \(lost.sorted())")
    }

    @Test func linesWithNothingKeptAreSkipped() {
        for tags in [["highway": "residential"], ["building": "yes"], ["natural": "tree"], ["surface": "asphalt"]] {
            #expect(!Self.kept(tags), "\(tags) is kept after all")
            #expect(!MapImport.mayKeep(Array(Self.line(tags).utf8)[...]), "\(tags) is parsed for nothing")
        }
    }
}
