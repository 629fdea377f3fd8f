import Foundation
import TestSupport
import Testing

/// The walking routes' database, built at import by Debian's Routino beside the place index
/// (issue 41): both replaced together, or neither. Real programs on the real Monaco extract,
/// after Andorra's pair was imported as the one in use.
@Suite("Walking routes built at import", .timeLimit(.minutes(5)))
struct RoutesImportTests {
    static func requireRoutino() throws {
        guard HostileImportTests.hasRoutino() else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("routino is not installed (apt-get install routino)") }
            try skip("routino is not installed (apt-get install routino)")
        }
    }

    static let monaco = HostileImportTests.data.appendingPathComponent("monaco.osm.pbf").path

    /// A new directory beside `state`, for the programs a test puts on PATH.
    static func programsDirectory(beside state: String) throws -> String {
        let bin = state + "/../programs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        return bin
    }

    @Test("an import builds the routes beside the index, map info says so, and Routino's router plans over them")
    func built() throws {
        try Self.requireRoutino()
        let (waypointd, state) = try HostileImportTests.prepared()
        let imported = try ExternalTool.run(waypointd, ["map", "import", Self.monaco, "--state-dir", state])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("routes           walking"), "\(imported.standardOutput)")
        #expect(imported.standardError.contains("step 4 of 4, building the walking routes"), "\(imported.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == ["places.sqlite", "routes"])
        #expect(try HostileImportTests.routesFingerprint(state) != HostileImportTests.andorraRoutes, "still Andorra's routes")
        let info = try ExternalTool.run(waypointd, ["map", "info", "--state-dir", state])
        #expect(info.standardOutput.contains("source           monaco.osm.pbf") && info.standardOutput.contains("routes           walking"))
        // From the Casino to the Place du Palais, on foot, over what the import wrote.
        let router = try ExternalTool.find("routino-router-slim", hint: "apt-get install routino")
        let planned = try ExternalTool.run(
            router,
            [
                "--dir=\(state)/routes", "--prefix=walk", "--transport=foot", "--quickest", "--lat1=43.7384", "--lon1=7.4246",
                "--lat2=43.7311", "--lon2=7.4197", "--output-text", "--output-stdout", "--quiet",
            ])
        #expect(planned.status == 0 && planned.standardOutput.contains("Waypt#2"), "\(planned.standardError)")
    }

    @Test("planetsplitter failing leaves the old index and routes in use, said (exit 65)")
    func splitterFails() throws {
        try Self.requireRoutino()
        let (waypointd, state) = try HostileImportTests.prepared()
        // A planetsplitter of our own first on PATH, that fails as a broken one would.
        let bin = try Self.programsDirectory(beside: state)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        let fake = bin + "/planetsplitter-slim"
        try Data("#!/bin/sh\necho 'Error: cannot allocate the sort buffer' >&2\nexit 3\n".utf8).write(to: URL(fileURLWithPath: fake))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let output = try ExternalTool.run(
            waypointd, ["map", "import", Self.monaco, "--state-dir", state], environment: ["PATH": "\(bin):/usr/bin:/bin"])
        #expect(output.status == 65, "\(output.standardError)")
        #expect(output.standardError.contains("could not build walking routes") && output.standardError.contains("cannot allocate the sort buffer"), "\(output.standardError)")
        try HostileImportTests.expectIntact(waypointd, state)
    }

    @Test("without Routino: the index alone, said, and the old routes (another extract's) removed")
    func withoutRoutino() throws {
        try Self.requireRoutino()
        let (waypointd, state) = try HostileImportTests.prepared()
        // A PATH with osmium and nothing of Routino.
        let bin = try Self.programsDirectory(beside: state)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try FileManager.default.createSymbolicLink(atPath: bin + "/osmium", withDestinationPath: "/usr/bin/osmium")
        let output = try ExternalTool.run(waypointd, ["map", "import", Self.monaco, "--state-dir", state], environment: ["PATH": bin])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("routes           none: install Routino (apt install routino), then import again"), "\(output.standardOutput)")
        #expect(output.standardError.contains("step 3 of 3, finishing the index"), "\(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["places.sqlite"])
    }
}
