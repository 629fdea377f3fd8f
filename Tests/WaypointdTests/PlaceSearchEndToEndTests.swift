import Foundation
import Testing
import TestSupport

/// Search and "where am I" through the real socket (issue 27): `waypointd map import` of the
/// Monaco extract into the state directory, then the real `waypointctl` against the real
/// `waypointd --simulate`; a new import while it runs is used for the next query.
@Suite("Search and where, through the daemon", .timeLimit(.minutes(10)))
struct PlaceSearchEndToEndTests {
    static let extracts = TestData.packageRoot.appendingPathComponent("Tests/PlaceIndexTests/Data")
    /// Monaco's Casino square.
    static let monaco = "43.7384,7.4246"

    @Test("search and where answer from the imported map; a new import is used at once; without a map, how to get one")
    func searchAndWhere() async throws {
        _ = try ExternalTool.find("osmium", hint: "apt-get install osmium-tool")
        let waypointd = try ExternalTool.built("waypointd")
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon(prepareState: { _ in })
        defer { _ = daemon.stop() }
        let state = URL(fileURLWithPath: daemon.socket).deletingLastPathComponent().appendingPathComponent("state").path
        func ctl(_ words: String...) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, ["--socket", daemon.socket] + words)
        }

        // No map yet: said, with what to do; STATUS has none.
        #expect(try daemon.client().request(#"{"cmd":"status"}"#)?["map"] is NSNull)
        var output = try ctl("search", "bakery", "--near", Self.monaco)
        #expect(output.status == 1)
        #expect(output.standardError.contains("waypointd map import"), "\(output.standardError)")

        // A short plus code with its town needs the map to find the town: said.
        output = try ctl("locate", "PCQH+F8 Monaco")
        #expect(output.status == 65 && output.standardError.contains("found on the offline map, and the daemon has none"), "\(output.standardError)")

        let imported = try ExternalTool.run(
            waypointd, ["map", "import", Self.extracts.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", state])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("source           monaco.osm.pbf"), "\(imported.standardOutput)")

        // STATUS names the map: the JSON and the summary.
        let map = try #require(daemon.client().request(#"{"cmd":"status"}"#)?.object("map"), "no map in STATUS")
        #expect(map["source"] as? String == "monaco.osm.pbf" && map["timestamp"] as? String == "2016-03-05T00:26:02Z", "\(map)")
        #expect(try ctl("status").standardOutput.contains("map: monaco.osm.pbf, OpenStreetMap data of 2016-03-05\n"))

        output = try ctl("search", "pharmacie azurea", "--near", Self.monaco, "--json")
        #expect(output.status == 0, "\(output.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == "Pharmacie Azurea" && first["kind"] as? String == "pharmacy", "\(first)")
        #expect((first["distance_m"] as? Double ?? 0) > 0 && first["bearing_deg"] is Double)

        output = try ctl("search", "bakery", "--near", Self.monaco, "--limit", "3")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.split(separator: "\n").count == 3, "\(output.standardOutput)")
        #expect(output.standardOutput.hasPrefix("1. "), "\(output.standardOutput)")

        // go --result N: result N of the last search, by its name.
        output = try ctl("search", "pharmacie", "--near", Self.monaco, "--limit", "3")
        let second = try #require(output.standardOutput.split(separator: "\n").dropFirst().first, "\(output.standardOutput)")
        output = try ctl("go", "--result", "2")
        #expect(output.status == 0, "\(output.standardError)")
        let chosen = try #require(daemon.client().request(#"{"cmd":"status"}"#)?.object("destination")?["name"] as? String)
        #expect(second.hasPrefix("2. \(chosen) ("), "\(second) / \(chosen)")
        #expect(try ctl("go", "--result", "9").status == 65)
        // go --search: the best match near the fix (in Paris: the map's nearest to it), named.
        _ = try await daemon.waitForStatus(try daemon.client(), seconds: 10) { $0.object("fix")?["lat"] is Double }
        output = try ctl("go", "--search", "Pharmacie Azurea")
        #expect(output.status == 0 && output.standardOutput.hasPrefix("chose: Pharmacie Azurea (pharmacy)"), "\(output.standardOutput)")

        // Issue 40: go --result said the distance from the search's --near, 369 m, with the
        // wearer in Paris, 692 km away.
        output = try ctl("search", "pharmacie", "--near", Self.monaco, "--limit", "3")
        output = try ctl("go", "--result", "1")
        #expect(output.status == 0 && output.standardOutput.contains(" km ") && output.standardOutput.contains("from here"), "\(output.standardOutput)")
        let kilometres = output.standardOutput.split(separator: " ").firstIndex(of: "km").flatMap { index in
            Double(output.standardOutput.split(separator: " ")[index - 1])
        }
        #expect((kilometres ?? 0) > 600, "\(output.standardOutput)")
        // --near typed longitude first near the wearer in Paris (5 352 km away as typed): refused
        // with the reading meant.
        output = try ctl("search", "bakery", "--near", "2.2945,48.8584")
        #expect(output.status == 65 && output.standardError.contains("--near: ") && output.standardError.contains("48.8584 2.2945"), "\(output.standardError)")
        output = try ctl("where", "--at", "2.2945 48.8584")
        #expect(output.status == 65 && output.standardError.contains("--at: "), "\(output.standardError)")
        // Issue 40: completed near Monaco, found on the map, not near the wearer in Paris (which
        // gave 8FW4PCQH+F8, 16 km from Paris). The full code from the reference implementation
        // (PyPI openlocationcode 1.0.1, recoverNearest near Monaco).
        output = try ctl("locate", "PCQH+F8 Monaco")
        #expect(output.status == 0 && output.standardError.contains("8FM9PCQH+F8: the short code completed near Monaco"), "\(output.standardError)")
        #expect(output.standardOutput.contains("43.738688 7.428313"), "\(output.standardOutput)")
        // Unnamed ATMs read with whose they are and the street they are on.
        output = try ctl("search", "atm", "--near", Self.monaco, "--limit", "20")
        #expect(output.standardOutput.contains(". atm, ") && output.standardOutput.contains(", near "), "\(output.standardOutput)")
        // Spaces are nothing to look for: a usage error, not "nothing found".
        output = try ctl("search", "   ")
        #expect(output.status == 64 && output.standardError.contains("search needs something to look for"), "\(output.standardError)")

        // Issue 40: above the tunnel of Boulevard du Larvotto, the street on the surface and the
        // side of it the walker is on.
        output = try ctl("where", "--at", "43.7375,7.4245")
        #expect(
            output.standardOutput.hasPrefix("street: Avenue d'Ostende\nside: the north side of Avenue d'Ostende\n"), "\(output.standardOutput)")

        output = try ctl("where", "--at", Self.monaco)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("town: Monaco"), "\(output.standardOutput)")

        // The simulated fix is in Paris: the map has nothing near it.
        _ = try await daemon.waitForStatus(try daemon.client(), seconds: 10) { $0.object("fix")?["lat"] is Double }
        output = try ctl("where")
        #expect(output.status == 0 && output.standardOutput == "no address or street near here on the map\n", "\(output.standardOutput)")

        // Andorra replaces Monaco while the daemon runs: the next query reads it.
        let replaced = try ExternalTool.run(
            waypointd, ["map", "import", Self.extracts.appendingPathComponent("andorra.osm.pbf").path, "--state-dir", state])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        output = try ctl("search", "pharmacie azurea", "--near", Self.monaco, "--json")
        #expect(output.standardOutput.contains("\"map\":\"andorra.osm.pbf\""), "\(output.standardOutput)")

        // A failed import leaves the index in use.
        let broken = daemon.socket + ".pbf"
        try Data("not a pbf".utf8).write(to: URL(fileURLWithPath: broken))
        let failed = try ExternalTool.run(waypointd, ["map", "import", broken, "--state-dir", state])
        #expect(failed.status == 65 && failed.standardError.contains("index in use is unchanged"), "\(failed.standardError)")
        output = try ctl("where", "--at", "42.5078,1.5211")
        #expect(output.status == 0 && output.standardOutput.contains("Andorra"), "\(output.standardOutput)")
    }
}
