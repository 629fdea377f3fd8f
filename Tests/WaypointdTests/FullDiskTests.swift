import Foundation
import Testing
import TestSupport

/// The state directory on a full file system (a 64 KiB tmpfs, filled to the last byte): each
/// request that changes what is saved is answered, and after a power cut (SIGKILL) and a restart
/// the daemon holds the state from before the request or the one after it, never neither. A
/// full disk once lost the target: `route load` could not write the route's file, and the
/// destination's was removed (issue 37).
@Suite("A full disk keeps the last good state", .timeLimit(.minutes(10)))
struct FullDiskTests {
    /// The route loaded in the test: three named waypoints north of the simulated start.
    static let route = #"{"cmd":"route","action":"load","name":"Loop","waypoints":[{"lat":48.8566,"lon":2.2986,"name":"W1"},{"lat":48.8576,"lon":2.2986,"name":"W2"},{"lat":48.8586,"lon":2.2986,"name":"W3"}]}"#

    /// What is saved, as the daemon reports it: the target, the places, the mute.
    struct Saved: Equatable, CustomStringConvertible {
        var target: String
        var places: [String]
        var muted: Bool
        var description: String { "\(target), places \(places), muted \(muted)" }
    }

    static func saved(_ client: ControlClient) throws -> Saved {
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let route = try #require(client.request(#"{"cmd":"route"}"#))
        let places = try #require(client.request(#"{"cmd":"place","action":"list"}"#))
        let target: String
        if let loaded = route.object("route") {
            target = "route \(loaded["name"] as? String ?? "?") at \(loaded["index"].map { "\($0)" } ?? "?")"
        } else if let destination = status.object("destination") {
            target = "destination \(destination["name"] as? String ?? "?")"
        } else {
            target = "none"
        }
        let names = (places["places"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        return Saved(target: target, places: names, muted: status["muted"] as? Bool ?? false)
    }

    @Test("go, route load, route next, clear, place add and mute on a full disk: after a power cut, the old state or the new, never neither")
    func fullDisk() async throws {
        guard geteuid() == 0 else { try skip("mounting a tmpfs needs root (CI runs as root)") }
        let mount = try ExternalTool.find("mount", hint: "apt install mount", extraDirectories: ["/usr/bin", "/bin"])
        let umount = try ExternalTool.find("umount", hint: "apt install mount", extraDirectories: ["/usr/bin", "/bin"])
        var stateDirectory: URL?
        let daemon = try await SimulatedDaemon(prepareState: { state in
            let mounted = try ExternalTool.run(mount, ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", state.path])
            try #require(mounted.status == 0, "\(mounted.standardError)")
            stateDirectory = state
            })
        let state = try #require(stateDirectory)
        defer {
            daemon.process.terminate()
            _ = try? ExternalTool.run(umount, ["-l", state.path])
        }
        var client = try daemon.client()
        #expect(client.request(#"{"cmd":"go","lat":48.8583,"lon":2.2986,"name":"A"}"#)?["class"] as? String == "OK")
        var before = try Self.saved(client)
        #expect(before.target == "destination A")

        // Fill the file system to its last byte.
        let filler = try FileHandle(forWritingTo: {
            let url = state.appendingPathComponent("filler")
            FileManager.default.createFile(atPath: url.path, contents: nil)
            return url
        }())
        var written = 0
        while written < 1 << 20, (try? filler.write(contentsOf: Data(count: 512))) != nil { written += 512 }
        try? filler.close()
        #expect(written < 64 * 1024, "the tmpfs took \(written) bytes")

        var process = daemon.process
        let requests = [
            ("route load", Self.route), ("go B", #"{"cmd":"go","lat":48.8573,"lon":2.2986,"name":"B"}"#),
            ("route load", Self.route), ("route next", #"{"cmd":"route","action":"next"}"#),
            ("place add", #"{"cmd":"place","action":"add","lat":48.8573,"lon":2.2986,"name":"Gate"}"#),
            ("mute", #"{"cmd":"mute","on":true}"#), ("clear", #"{"cmd":"clear"}"#),
            ("go B", #"{"cmd":"go","lat":48.8573,"lon":2.2986,"name":"B"}"#),
        ]
        for (name, request) in requests {
            let reply = try #require(client.request(request), "\(name): no reply")
            let after = try Self.saved(client)
            // A power cut: nothing is flushed, nothing cleaned up.
            kill(process.processID, SIGKILL)
            _ = process.waitForExit()
            (process, client) = try await daemon.restart()
            let loaded = try Self.saved(client)
            let failed = reply["class"] as? String == "ERROR"
            print("full disk: \(name): \(failed ? "refused: \(reply["message"] ?? "")" : "done"); after a restart: \(loaded)")
            #expect(loaded == before || loaded == after, "\(name): before \(before), after \(after), restarted with \(loaded)")
            if !failed { #expect(loaded == after, "\(name) said it was done, but a restart lost it: \(loaded)") }
            before = loaded
        }
        // With space again, saves work: the state directory is not stuck.
        try FileManager.default.removeItem(at: state.appendingPathComponent("filler"))
        #expect(client.request(#"{"cmd":"go","lat":48.8583,"lon":2.2986,"name":"C"}"#)?["class"] as? String == "OK")
        kill(process.processID, SIGKILL)
        _ = process.waitForExit()
        let (last, lastClient) = try await daemon.restart()
        defer { last.terminate() }
        #expect(try Self.saved(lastClient).target == "destination C")
    }
}
