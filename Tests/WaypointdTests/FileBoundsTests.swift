import Foundation
import Testing
import TestSupport

/// Issue 17, items 5 to 7: what the daemon is given to read in place of a file. Each program
/// runs under `timeout`, so a hang is a failure (status 124) rather than a stuck test run.
@Suite("waypointd: FIFOs, devices and links in place of files", .timeLimit(.minutes(10)))
struct FileBoundsTests {
    /// Runs waypointd with `arguments`, killed after 10 s.
    private func waypointd(_ arguments: [String]) throws -> ExternalTool.Output {
        let waypointd = try ExternalTool.built("waypointd")
        let timeout = try ExternalTool.find("timeout", hint: "apt install coreutils")
        return try ExternalTool.run(timeout, ["10", waypointd.path] + arguments)
    }

    private func temporaryFIFO() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test("a FIFO as the config file is refused at once, naming it (exit 78)")
    func configurationFIFO() throws {
        let fifo = try temporaryFIFO()
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let output = try waypointd(["--print-config", "--config", fifo])
        #expect(output.status == 78, "\(output.standardError)")
        #expect(output.standardError.contains("\(fifo): cannot read the configuration: is not a regular file"))
    }

    @Test("replay of /dev/zero or a FIFO exits 66 at once without reading it", arguments: ["/dev/zero", "fifo"])
    func replayDevice(path: String) throws {
        let file = path == "fifo" ? try temporaryFIFO() : path
        defer { if path == "fifo" { try? FileManager.default.removeItem(atPath: file) } }
        let output = try waypointd(["replay", file])
        #expect(output.status == 66, "\(output.standardError)")
        #expect(output.standardError == "waypointd: cannot read \(file): is not a regular file (a FIFO, socket or device)\n")
    }

    @Test("--simulate-events /dev/zero exits 66 at once, naming it")
    func eventsDevice() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID().uuidString)").path
        let output = try waypointd(["--simulate", "--socket", socket, "--simulate-events", "/dev/zero"])
        #expect(output.status == 66, "\(output.standardError)")
        #expect(output.standardError.contains("cannot read the simulation events"))
        #expect(output.standardError.contains("/dev/zero"))
    }

    @Test("a FIFO as mute.json and a link as target.json: the daemon starts, loads neither, and says why")
    func stateFilesOfTheWrongKind() async throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("elsewhere-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        // A valid target file outside the state directory, and a link to it.
        let target = elsewhere.appendingPathComponent("target.json")
        try #"{"version":1,"destination":{"lat":10,"lon":20,"name":"planted"},"route":null}"#.write(to: target, atomically: true, encoding: .utf8)
        let start = ContinuousClock.now
        let daemon = try await SimulatedDaemon(prepareState: { state in
            try FileManager.default.createSymbolicLink(
                atPath: state.appendingPathComponent("target.json").path, withDestinationPath: target.path)
            try #require(mkfifo(state.appendingPathComponent("mute.json").path, 0o600) == 0)
            })
        #expect(ContinuousClock.now - start < .seconds(5), "the socket came only after \(ContinuousClock.now - start)")
        let client = try daemon.client()
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        #expect(status["destination"] is NSNull, "the planted destination was loaded: \(status)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.contains("target.json") && $0.contains("symbolic link") }, "\(problems)")
        #expect(problems.contains { $0.contains("mute.json") && $0.contains("FIFO") }, "\(problems)")
        #expect(FileManager.default.fileExists(atPath: target.path), "the link's target is left alone")
        #expect(daemon.stop() == 0)
    }
}
