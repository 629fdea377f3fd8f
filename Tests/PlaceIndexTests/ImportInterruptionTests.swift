import Foundation
import TestSupport
import Testing

/// `waypointd map import` at a region's size (issue 39): stopped half way by ^C or SIGTERM, out
/// of room, left behind by a killed import, and telling its progress. Each runs the real program
/// on a synthetic city (scripts/synthetic-city.py, 100 000 places: big enough that the import
/// takes seconds), after Andorra's index was imported as the one in use.
@Suite("Imports at a region's size: interrupted, out of room, their progress", .timeLimit(.minutes(5)))
struct ImportInterruptionTests {
    nonisolated(unsafe) static var madeCity: String?
    static let lock = NSLock()

    /// The synthetic city's extract, written once for the suite.
    static func city() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let madeCity { return madeCity }
        let python = try ExternalTool.find("python3", hint: "apt-get install python3-pyosmium", extraDirectories: ["/usr/bin"])
        let systemPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? URL(fileURLWithPath: "/usr/bin/python3") : python
        let pbf = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-city-\(UUID().uuidString).osm.pbf").path
        let written = try ExternalTool.run(
            systemPython, [TestData.packageRoot.appendingPathComponent("scripts/synthetic-city.py").path, "--places", "100000", "--out", pbf])
        try #require(written.status == 0, "synthetic-city.py failed (python3-pyosmium?): \(written.standardError)")
        madeCity = pbf
        return pbf
    }

    /// Starts an import of the city into `state`, its standard error into a file.
    static func start(_ waypointd: URL, _ state: String) throws -> (Process, String) {
        let errors = state + "/../import-\(UUID().uuidString).err"
        FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = waypointd
        process.arguments = ["map", "import", try city(), "--state-dir", state]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        return (process, errors)
    }

    /// Waits (at most 60 s) until `ready` holds.
    static func wait(until ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !ready() {
            try #require(Date() < deadline, "waited 60 s")
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    @Test("^C or SIGTERM half way: exit 130 within a second, the old index in use, no scratch file left", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) throws {
        let (waypointd, state) = try HostileImportTests.prepared()
        let (process, errors) = try Self.start(waypointd, state)
        // Half way: the new index is being written beside the old one.
        try Self.wait { (try? String(contentsOfFile: errors, encoding: .utf8))?.contains("%") == true }
        let scratch = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix(".import-") }
        #expect(!scratch.isEmpty, "the import had not begun writing")
        kill(process.processIdentifier, signal)
        let sent = Date()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 1, "took \(Date().timeIntervalSince(sent)) s to stop")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(said.contains("interrupted; the index in use is unchanged, and nothing of the new one is left"), "\(said)")
        try HostileImportTests.expectIntact(waypointd, state)
    }

    @Test("a whole import says its three steps in order, with how far each is")
    func progress() throws {
        let (waypointd, state) = try HostileImportTests.prepared()
        let (process, errors) = try Self.start(waypointd, state)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = try String(contentsOfFile: errors, encoding: .utf8).split(separator: "\n").map(String.init)
        let steps = HostileImportTests.hasRoutino() ? 4 : 3
        let pattern = try Regex(
            #"^step ([1234]) of "# + "\(steps)" + #", (reading the extract|writing the index|finishing the index|building the walking routes)(: \d{1,3} %(, about \d+ (s|min) left)?|…)$"#)
        var said: [Int] = []
        for line in lines {
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            said.append(Int(match.output[1].substring ?? "") ?? 0)
        }
        #expect(said == said.sorted() && Set(said) == Set(1...steps), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("step 2 of \(steps), writing the index: ") }, "no percentage: \(lines)")
        // Not a terminal: a line a phase and every 10 s, not one a block.
        #expect(lines.count <= 12, "\(lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == HostileImportTests.stateFiles())
    }

    @Test("the scratch files of an import that was killed are removed by the next; a running one's are not")
    func abandonedScratch() throws {
        let (waypointd, state) = try HostileImportTests.prepared()
        // A process that has ended: its number names no process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = "\(state)/.import-\(ended.processIdentifier).sqlite"
        let live = "\(state)/.import-\(getpid()).sqlite"
        for path in [dead, dead.replacingOccurrences(of: ".sqlite", with: ".nodes"), live] {
            FileManager.default.createFile(atPath: path, contents: Data(repeating: 1, count: 4096))
        }
        let output = try ExternalTool.run(
            waypointd, ["map", "import", HostileImportTests.data.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", state])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: state).sorted() == ([".import-\(getpid()).sqlite"] + HostileImportTests.stateFiles()).sorted())
    }

    @Test("less room than an import needs: refused before anything is written, exit 73, how much is needed")
    func noRoom() throws {
        guard geteuid() == 0 else { try skip("mounting a tmpfs needs root (CI runs as root)") }
        let mount = try ExternalTool.find("mount", hint: "util-linux")
        let umount = try ExternalTool.find("umount", hint: "util-linux")
        let waypointd = try ExternalTool.built("waypointd")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("no-room-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // 4 MiB: room for Monaco's index (1.5 MB), not for the 8 times its 1.7 MB extract asked.
        let mounted = try ExternalTool.run(mount, ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", state])
        try #require(mounted.status == 0, "\(mounted.standardError)")
        defer {
            _ = try? ExternalTool.run(umount, [state])
            try? FileManager.default.removeItem(atPath: state)
        }
        let output = try ExternalTool.run(
            waypointd, ["map", "import", HostileImportTests.data.appendingPathComponent("monaco.osm.pbf").path, "--state-dir", state])
        #expect(output.status == 73, "\(output.standardError)")
        #expect(output.standardError.contains("needs about 13 MiB free beside \(state), and 4 MiB are"), "\(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).isEmpty)
    }
}
