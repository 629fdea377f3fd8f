import Foundation
import Testing
import TestSupport

/// `waypointd gps` as a process, against a real gpsd that is fed, killed, frozen and
/// restarted, and against a peer that is not gpsd.
@Suite("waypointd gps against a real gpsd", .timeLimit(.minutes(10)))
struct GPSCommandTests {
    static let walkingLog = TestData.url("Tests/GPSClientTests/Data/haicom-305N.log")
    /// A log with a 3D fix from its first sentence.
    static let fixedLog = TestData.url("Tests/GPSClientTests/Data/mt3339.log")

    /// Feeds a log into gpsd over and over on a thread of its own, like a receiver that never
    /// stops talking, until `stop()`.
    final class Feeder: Sendable {
        private let stopped = StopFlag()

        init(_ gpsd: GPSDHarness, log: URL) {
            Thread.detachNewThread { [stopped] in
                while !stopped.isSet {
                    do {
                        try gpsd.feed(log) { stopped.isSet }
                    } catch {
                        return
                    }
                }
            }
        }

        func stop() { stopped.stop() }
    }

    static func fixLines(_ lines: [ChildProcess.Line]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any] }
    }

    @Test("--count N prints N lines of the documented JSON and exits 0")
    func count() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let feeder = Feeder(gpsd, log: Self.walkingLog)
        defer { feeder.stop() }
        let client = try ChildProcess(waypointd, ["gps", "--server", gpsd.address, "--count", "12"])
        defer { client.terminate() }
        await client.wait(timeout: .seconds(20)) { _, _ in !client.isRunning }
        #expect(client.waitForExit() == 0, "\(client.errors.map(\.text))")
        let lines = client.output
        #expect(lines.count == 12)
        let keys: Set = ["time", "mode", "lat", "lon", "altHAE", "altMSL", "speed", "track", "eph", "epd"]
        for object in Self.fixLines(lines) {
            #expect(Set(object.keys) == keys)
            let mode = try #require(object["mode"] as? Int)
            #expect((1...3).contains(mode))
            // A fix can come before the receiver knows the date: time is then null.
            if let time = object["time"] as? String {
                #expect(time.hasSuffix("Z") && time.count == 24, "\(time)")
            } else {
                #expect(object["time"] is NSNull)
            }
            if mode >= 2 {
                #expect(object["lat"] is Double && object["lon"] is Double)
            } else {
                #expect(object["lat"] is NSNull && object["lon"] is NSNull)
            }
        }
        #expect(Self.fixLines(lines).count == 12)
        #expect(client.errors.contains { $0.text == "waypointd: connected to gpsd at \(gpsd.address)" })
    }

    @Test("nothing listening: exit 69 naming the address; a malformed address: exit 64")
    func unreachable() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let port = try GPSDHarness.freePort()
        let output = try ExternalTool.run(waypointd, ["gps", "--server", "127.0.0.1:\(port)", "--count", "1"])
        #expect(output.status == 69)
        #expect(output.standardError.contains("cannot connect to gpsd at 127.0.0.1:\(port)"), "\(output.standardError)")
        for bad in ["127.0.0.1:0", "127.0.0.1:70000", "host:port", "::1", "[::1", "", "a b"] {
            let usage = try ExternalTool.run(waypointd, ["gps", "--server", bad])
            #expect(usage.status == 64, "\(bad)")
            #expect(usage.standardError.contains("bad gpsd address '\(bad)'"), "\(bad): \(usage.standardError)")
        }
        let count = try ExternalTool.run(waypointd, ["gps", "--count", "-3"])
        #expect(count.status == 64)
        #expect(count.standardError.contains("--count '-3' is not a positive whole number"))
    }

    @Test("gpsd killed: 'no data' within 3 s, no busy loop while it is down, fixes again within 5 s of its return")
    func gpsdKilledAndRestarted() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let gpsd = try GPSDHarness.start()
        let feeder = Feeder(gpsd, log: Self.fixedLog)
        let client = try ChildProcess(waypointd, ["gps", "--server", gpsd.address])
        defer { client.terminate() }
        try #require(await client.wait(timeout: .seconds(15)) { output, _ in Self.fixLines(output).count >= 3 })

        let port = gpsd.port
        feeder.stop()
        let killedAt = ContinuousClock.now
        kill(-gpsd.processID, SIGKILL)
        gpsd.stop()
        let noData = await client.wait(timeout: .seconds(6)) { _, errors in
            errors.contains { $0.text.contains("no data from gpsd") && $0.at > killedAt }
        }
        #expect(noData, "\(client.errors.map(\.text))")
        if let report = client.errors.first(where: { $0.text.contains("no data from gpsd") && $0.at > killedAt }) {
            #expect(report.at - killedAt <= .milliseconds(3500), "reported after \(report.at - killedAt)")
        }
        #expect(client.errors.contains { $0.text.contains("lost the connection to gpsd at 127.0.0.1:\(port)") })

        let cpuBefore = try #require(client.cpuSeconds())
        try await Task.sleep(for: .seconds(10))
        let cpuWhileDown = try #require(client.cpuSeconds()) - cpuBefore
        #expect(cpuWhileDown < 0.2, "\(cpuWhileDown) s of CPU in 10 s with gpsd down")
        #expect(client.isRunning)

        let linesBefore = client.output.count
        let restarted = try GPSDHarness.start(port: port)
        defer { restarted.stop() }
        let backAt = ContinuousClock.now
        let feeder2 = Feeder(restarted, log: Self.fixedLog)
        defer { feeder2.stop() }
        let resumed = await client.wait(timeout: .seconds(8)) { output, _ in
            Self.fixLines(Array(output.dropFirst(linesBefore))).contains { ($0["mode"] as? Int ?? 0) >= 2 }
        }
        #expect(resumed, "\(client.errors.map(\.text).suffix(5))")
        if let first = client.output.dropFirst(linesBefore).first(where: { $0.text.contains("\"mode\":3") }) {
            #expect(first.at - backAt <= .seconds(5), "fixes resumed \(first.at - backAt) after gpsd came back")
        }
    }

    @Test("a frozen gpsd: 'no data', no spin, and fixes again when it thaws")
    func gpsdStalled() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let feeder = Feeder(gpsd, log: Self.fixedLog)
        defer { feeder.stop() }
        let client = try ChildProcess(waypointd, ["gps", "--server", gpsd.address])
        defer { client.terminate() }
        try #require(await client.wait(timeout: .seconds(15)) { output, _ in Self.fixLines(output).count >= 2 })
        gpsd.suspend()
        let frozenAt = ContinuousClock.now
        let cpuBefore = try #require(client.cpuSeconds())
        #expect(await client.wait(timeout: .seconds(6)) { _, errors in
            errors.contains { $0.text.contains("no data from gpsd") && $0.at > frozenAt }
        })
        try await Task.sleep(for: .seconds(2))
        let cpu = try #require(client.cpuSeconds()) - cpuBefore
        #expect(cpu < 0.1, "\(cpu) s of CPU while gpsd was frozen")
        let linesBefore = client.output.count
        gpsd.resume()
        #expect(await client.wait(timeout: .seconds(8)) { output, _ in output.count > linesBefore })
    }

    @Test("a peer that is not gpsd: a clear error, no crash, no spin")
    func notGPSD() async throws {
        let waypointd = try ExternalTool.built("waypointd")
        let server = try GarbageServer()
        defer { server.stop() }
        let client = try ChildProcess(waypointd, ["gps", "--server", "127.0.0.1:\(server.port)"])
        defer { client.terminate() }
        let reported = await client.wait(timeout: .seconds(10)) { _, errors in
            errors.contains { $0.text.contains("does not speak gpsd's JSON protocol") }
        }
        #expect(reported, "\(client.errors.map(\.text))")
        let cpuBefore = try #require(client.cpuSeconds())
        try await Task.sleep(for: .seconds(4))
        #expect(client.isRunning)
        let cpu = try #require(client.cpuSeconds()) - cpuBefore
        #expect(cpu < 0.1, "\(cpu) s of CPU in 4 s against a garbage peer")
        #expect(client.output.isEmpty)
    }
}

/// A TCP server on 127.0.0.1 that answers every connection with lines of text that are not
/// gpsd's JSON, then closes it.
final class GarbageServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let stopped = StopFlag()

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ready else { throw GPSDHarness.HarnessError(description: "garbage server: errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [listener, stopped] in
            while !stopped.isSet {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                let text = "HELLO, this is not gpsd\r\nSSH-2.0-OpenSSH_9.2\r\n"
                _ = text.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                Thread.sleep(forTimeInterval: 0.2)
                close(connection)
            }
        }
    }

    func stop() {
        stopped.stop()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
