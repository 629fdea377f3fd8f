import Foundation
@preconcurrency import Glibc
import Testing
import TestSupport

/// Issue 17: the simulated daemon guiding for minutes under a mixed load of well- and
/// ill-behaved clients ends with the memory, descriptors and threads it started with.
/// Twenty seconds in `make test` (a short soak, every kind of client many times over);
/// `make soak` runs it for `WAYPOINT_SOAK_SECONDS` (1800).
@Suite("The daemon under a long mixed load", .timeLimit(.minutes(45)))
struct SoakTests {
    static let seconds = ProcessInfo.processInfo.environment["WAYPOINT_SOAK_SECONDS"].flatMap { Double($0) } ?? 20

    /// One round of the load: every kind of client the daemon meets, each gone by the end.
    private func round(_ socket: String, index: Int) throws {
        // A well-behaved client: a few requests, then it leaves.
        let client = try ControlClient(path: socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        for request in [
            #"{"cmd":"status"}"#, #"{"cmd":"recent"}"#, #"{"cmd":"mute","on":\#(index % 2 == 0)}"#,
            #"{"cmd":"buzz","pattern":"test"}"#, "not json", String(repeating: "x", count: 70_000),
            #"{"cmd":"teleport"}"#, #"{"cmd":"go","lat":91,"lon":0}"#,
        ] {
            #expect(client.request(request) != nil, "no reply to \(request.prefix(40))")
        }
        if index % 10 == 0 {
            #expect(client.request(#"{"cmd":"clear"}"#)?["class"] as? String == "OK")
            #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        }
        // A pipelining client that half-closes.
        let scripted = try ControlClient(path: socket)
        scripted.send(bytes: Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 50).utf8))
        scripted.finishSending()
        var replies = 0
        while scripted.receive() != nil { replies += 1 }
        #expect(replies == 51, "\(replies) lines to a half-closed client")
        // One that leaves mid-line, and one that leaves without reading its replies.
        let rude = try ControlClient(path: socket)
        rude.send(bytes: Array(#"{"cmd":"sta"#.utf8))
        let deaf = try ControlClient(path: socket)
        for _ in 0..<20 { deaf.send(#"{"cmd":"status"}"#) }
    }

    @Test("guiding under a mixed load: RSS, descriptors and threads at the end are those of the start")
    func mixedLoad() async throws {
        let daemon = try await SimulatedDaemon()
        #expect(try daemon.client().request(SimulatedDaemon.far)?["class"] as? String == "OK")
        var watcher = try ControlWatcher(path: daemon.socket, hertz: 2)
        // Warm up: the thread pool and the allocator reach their working size.
        for index in 0..<20 { try round(daemon.socket, index: index) }
        try await Task.sleep(for: .seconds(3))
        let start = (
            rss: try #require(daemon.process.status("VmRSS")), threads: try #require(daemon.process.status("Threads")),
            descriptors: try #require(daemon.process.openDescriptors))

        let end = ContinuousClock.now + .seconds(Self.seconds)
        var rounds = 0
        var peakRSS = start.rss
        while ContinuousClock.now < end {
            try round(daemon.socket, index: rounds)
            rounds += 1
            if rounds % 50 == 0 {
                // A fresh watcher now and then; the old one leaves.
                #expect(!watcher.isDisconnected, "the watcher was dropped; \(daemon.log)")
                watcher.stop()
                watcher = try ControlWatcher(path: daemon.socket, hertz: 2)
                peakRSS = max(peakRSS, daemon.process.status("VmRSS") ?? 0)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The clients are gone but one watcher, as at the start; what the daemon held for the
        // others goes within a few seconds.
        #expect(!watcher.isDisconnected, "the watcher was dropped; \(daemon.log)")
        try await Task.sleep(for: .seconds(5))
        let rss = try #require(daemon.process.status("VmRSS"))
        let threads = try #require(daemon.process.status("Threads"))
        let descriptors = try #require(daemon.process.openDescriptors)
        let summary = """
            \(rounds) rounds in \(Int(Self.seconds)) s; VmRSS \(start.rss) → \(rss) kB (peak seen \(peakRSS) kB), \
            threads \(start.threads) → \(threads), descriptors \(start.descriptors) → \(descriptors)
            """
        print("soak: \(summary)")
        #expect(rounds > 100, "\(summary)")
        #expect(rss <= start.rss + 2048, "\(summary)")
        // Swift concurrency's pool may have grown by a thread or two since; a reader thread
        // leaked per client would be thousands.
        #expect(threads <= start.threads + 2, "\(summary)")
        #expect(descriptors == start.descriptors, "\(summary)")
        watcher.stop()
        // Still guiding, or arrived: the wearer walks 300 m in about 4 minutes.
        let state = try daemon.client().request(#"{"cmd":"status"}"#)?["state"] as? String
        #expect(state == "guiding" || state == "arrived", "\(String(describing: state)); \(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
