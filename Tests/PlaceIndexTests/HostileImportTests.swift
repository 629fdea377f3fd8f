import Foundation
import TestSupport
import Testing

/// `waypointd map import` of what is not a good extract (issue 27): each gets a sentence naming
/// the problem and its exit status, and the index in use (Andorra's, imported first) stays
/// whole and in use.
@Suite("Hostile imports leave the old index in use", .timeLimit(.minutes(5)))
struct HostileImportTests {
    static let data = TestData.packageRoot.appendingPathComponent("Tests/PlaceIndexTests/Data")
    static let lock = NSLock()

    /// A state directory holding Andorra's index, and a scratch file in it.
    static func prepared() throws -> (waypointd: URL, state: String) {
        _ = try ExternalTool.find("osmium", hint: "apt-get install osmium-tool")
        let waypointd = try ExternalTool.built("waypointd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let first = try ExternalTool.run(waypointd, ["map", "import", data.appendingPathComponent("andorra.osm.pbf").path, "--state-dir", state])
        try #require(first.status == 0, "\(first.standardError)")
        if hasRoutino() {
            let routes = try routesFingerprint(state)
            lock.lock()
            andorraRoutes = routes
            lock.unlock()
        } else if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("routino is not installed (apt-get install routino): under CI=true that is a failure")
        }
        return (waypointd, state)
    }

    /// The index still Andorra's (and its routes, when Routino is installed), and nothing of
    /// the failed import left behind.
    static func expectIntact(_ waypointd: URL, _ state: String) throws {
        let info = try ExternalTool.run(waypointd, ["map", "info", "--state-dir", state])
        #expect(info.status == 0 && info.standardOutput.contains("source           andorra.osm.pbf"), "\(info.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == stateFiles())
        if hasRoutino() { #expect(try routesFingerprint(state) == andorraRoutes, "Andorra's routes changed") }
    }

    /// What a state directory holds after an import: the index, and the routes with Routino.
    static func stateFiles() -> [String] { hasRoutino() ? ["places.sqlite", "routes"] : ["places.sqlite"] }

    /// Whether Debian's routino is installed (a failure under CI=true when it is not).
    static func hasRoutino() -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/planetsplitter-slim")
            && FileManager.default.fileExists(atPath: "/usr/share/routino/tagging-walk.xml")
    }

    /// The routes' files and their sizes, to tell one extract's routes from another's.
    static func routesFingerprint(_ state: String) throws -> [String: Int] {
        let directory = state + "/routes"
        var sizes: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            sizes[name] = (try FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? -1
        }
        return sizes
    }

    /// Andorra's routes as its first import wrote them.
    nonisolated(unsafe) static var andorraRoutes: [String: Int] = [:]

    @Test(
        "not an extract, a truncated one, an empty file, a 10 MB name tag: exit 65 and the reason",
        arguments: [
            ("text", "is not an OpenStreetMap extract"), ("truncated", "could not read"), ("empty", "is not an OpenStreetMap extract"),
            ("long-name", "overlong string"),
        ])
    func badFiles(kind: String, reason: String) throws {
        let (waypointd, state) = try Self.prepared()
        let file = state + "/../\(kind)-\(UUID().uuidString).osm.pbf"
        switch kind {
        case "text": try Data("<osm>not a pbf</osm>\n".utf8).write(to: URL(fileURLWithPath: file))
        case "truncated":
            let whole = try Data(contentsOf: Self.data.appendingPathComponent("monaco.osm.pbf"))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file))
        case "empty": try Data().write(to: URL(fileURLWithPath: file))
        default:
            // A node whose name is 10 MB, written by hand: libosmium will not write one.
            let python = URL(fileURLWithPath: "/usr/bin/python3")
            let made = try ExternalTool.run(python, [Self.data.appendingPathComponent("long_name_pbf.py").path, file])
            try #require(made.status == 0, "\(made.standardError)")
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        let output = try ExternalTool.run(waypointd, ["map", "import", file, "--state-dir", state])
        #expect(output.status == 65, "\(output.standardError)")
        #expect(output.standardError.contains(reason) && output.standardError.contains("the index in use is unchanged"), "\(output.standardError)")
        #expect(output.standardError.split(separator: "\n").count == 1 && output.standardError.count < 400)
        try Self.expectIntact(waypointd, state)
    }

    @Test("a full disk during the import (a file size limit, as LimitFSIZE= or a full card): exit 73, said so")
    func diskFull() throws {
        let prlimit = try ExternalTool.find("prlimit", hint: "util-linux")
        let (waypointd, state) = try Self.prepared()
        // Room for osmium's filtered extract (about 310 kB), not for the index (about 1.9 MB).
        let output = try ExternalTool.run(
            prlimit, ["--fsize=1000000", waypointd.path, "map", "import", Self.data.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", state])
        #expect(output.status == 73, "\(output.standardError)")
        #expect(output.standardError.contains("is full"), "\(output.standardError)")
        try Self.expectIntact(waypointd, state)
    }

    /// A missing extract is no input (66), named; a missing state directory is said as such,
    /// not as "cannot start /usr/bin/osmium: No such file or directory" (osmium was there; the
    /// directory its output was to go to was not).
    @Test("a missing extract: exit 66, named; a missing state directory: exit 73, named")
    func missingFiles() throws {
        _ = try ExternalTool.find("osmium", hint: "apt-get install osmium-tool")
        let waypointd = try ExternalTool.built("waypointd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let noExtract = try ExternalTool.run(waypointd, ["map", "import", "/nonexistent/city.osm.pbf", "--state-dir", state])
        #expect(noExtract.status == 66, "\(noExtract.standardError)")
        #expect(noExtract.standardError.contains("cannot read /nonexistent/city.osm.pbf"), "\(noExtract.standardError)")
        let noDirectory = try ExternalTool.run(
            waypointd, ["map", "import", Self.data.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", state + "/absent"])
        #expect(noDirectory.status == 73, "\(noDirectory.standardError)")
        #expect(noDirectory.standardError.contains("the state directory \(state)/absent does not exist"), "\(noDirectory.standardError)")
        #expect(!noDirectory.standardError.contains("osmium"), "\(noDirectory.standardError)")
    }

    @Test("no osmium: exit 69, and how to get it")
    func noOsmium() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let output = try ExternalTool.run(
            waypointd, ["map", "import", Self.data.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", "/tmp"],
            environment: ["PATH": "/nonexistent"])
        #expect(output.status == 69)
        #expect(output.standardError.contains("apt install osmium-tool"))
    }
}
