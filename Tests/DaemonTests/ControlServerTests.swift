import ControlProtocol
import Daemon
import Foundation
import Geodesy
@preconcurrency import Glibc
import Core
import Synchronization
import SystemSupport
import Testing

// MARK: - Fixtures

/// Records what the server asked for and answers with fixed values.
private final class FakeHandler: ControlHandler {
    let goes = Mutex<[SavedDestination]>([])
    let clears = Mutex(0)
    let calls = Mutex<[String]>([])
    let statusCount = Mutex(0)
    /// While true, `status()` waits: a handler that has stopped answering.
    let statusHeld = Mutex(false)

    func handle(_ request: ControlRequest) -> ControlReply {
        switch request {
        case .go(let latitude, let longitude, let name, _):
            goes.withLock {
                $0.append(SavedDestination(coordinate: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude), name: name))
            }
            return name == "fail" ? .error(ControlError(.internal, "disk full")) : .ok
        case .clear:
            clears.withLock { $0 += 1 }
            return .ok
        case .status:
            return .status(status())
        case .removeRecent(let index):
            calls.withLock { $0.append("recent remove \(index)") }
            return .ok
        case .removeRecentPlace(let latitude, let longitude):
            calls.withLock { $0.append("recent remove \(latitude) \(longitude)") }
            return .ok
        case .recent:
            return .recent([
                DestinationReport(latitude: -33.8568, longitude: 151.2153, name: "Opera"), DestinationReport(latitude: 1, longitude: 2),
            ])
        case .goRecent(let index):
            calls.withLock { $0.append("go-recent \(index)") }
            return index <= 2 ? .ok : .error(ControlError(.notFound, "there are only 2 recent destinations"))
        case .mute(let on):
            calls.withLock { $0.append("mute \(on)") }
            return .ok
        case .calibrate(let action):
            calls.withLock { $0.append("calibrate \(action.rawValue)") }
            if action == .finish { return .error(ControlError(.refused, "not enough coverage")) }
            return .calibration(CalibrationReport(state: "running", samples: 12, octants: [1, 2, 3, 4, 0, 0, 1, 1], message: "turn"))
        case .buzz(let pattern):
            calls.withLock { $0.append("buzz \(pattern.rawValue)") }
            return .ok
        case .goPlace(let name):
            calls.withLock { $0.append("go-place \(name)") }
            return name == "Opera" ? .ok : .error(ControlError(.notFound, "no place is called \"\(name)\""))
        case .route(let action):
            calls.withLock { $0.append("route \(action.name)") }
            guard case .load(let name, let waypoints) = action else { return .route(nil) }
            return .route(
                RouteReport(name: name, waypoint: 1, count: waypoints.count, target: waypoints[0], remainingMeters: nil, isFinished: false))
        case .track(let action):
            calls.withLock { $0.append("track \(action.name)") }
            guard case .export(_, _, let cursor) = action else { return .ok }
            return .track(
                TrackReport(
                    points: [TrackReport.Point(seconds: 1_782_950_400, latitude: 1, longitude: 2, startsSegment: true)],
                    next: cursor == nil ? "0:42" : nil))
        case .back(let minutes):
            calls.withLock { $0.append("back \(minutes.map { "\($0)" } ?? "start")") }
            return .error(ControlError(.refused, "no trail"))
        case .place(.list):
            return .places([DestinationReport(latitude: 1, longitude: 2, name: "Car", radiusMeters: 6)])
        case .place(let action):
            calls.withLock { $0.append("place \(action.name)") }
            guard case .mark(let name, _, _, _) = action else { return .ok }
            return .placeMarked(PlaceMarkReport(place: DestinationReport(latitude: 1, longitude: 2, name: name), errorMeters: 4.5, fixes: 5))
        case .watch:
            return .ok
        case .search(let query, _, _, _):
            calls.withLock { $0.append("search \(query)") }
            return .search(SearchReport(results: [], map: nil))
        case .whereAmI:
            return .error(ControlError(.notFound, "no map is loaded"))
        case .buttonTest:
            return .error(ControlError(.notFound, "no button is configured"))
        }
    }

    /// Waits while ``statusHeld``, on the client's thread (the server's handler is synchronous).
    private func status() -> StatusReport {
        statusCount.withLock { $0 += 1 }
        while statusHeld.withLock({ $0 }) { usleep(5000) }
        return StatusReport(
            state: "guiding",
            fix: .init(time: "2026-05-01T12:00:00Z", mode: 3, latitude: 48.85, longitude: 2.29, horizontalErrorMeters: 4),
            heading: .init(trueDegrees: 10, magneticDegrees: 8.5, declinationDegrees: 1.5, isReliable: true),
            destination: DestinationReport(latitude: 48.8584, longitude: 2.2945, name: "Eiffel"),
            bearingDegrees: 45, distanceMeters: 120, errorDegrees: 35,
            haptic: .init(intensity: 0.5, sharpness: 0.25, duty: 0.4), calibration: "saved", isMuted: false)
    }
}

/// A client made of raw calls, reading without blocking a cooperative thread: the server's
/// handler tasks share those few threads.
private final class TestClient {
    let descriptor: Int32
    private var buffered: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw Errno.current }
    }

    deinit { Glibc.close(descriptor) }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Sends without waiting: how many bytes the kernel took (0 when the socket is full).
    func writeWithoutBlocking(_ bytes: [UInt8]) -> Int {
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return max(written, 0)
    }

    func write(_ bytes: [UInt8]) {
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        precondition(written == bytes.count, "short write in a test")
    }

    /// The next line as a JSON object; nil at end of stream.
    func readObject(timeout: Duration = .seconds(10)) async throws -> [String: Any]? {
        guard let line = try await readLine(timeout: timeout) else { return nil }
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    /// The next line, without its newline; nil at end of stream.
    func readLine(timeout: Duration = .seconds(10)) async throws -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffered += chunk[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                return nil
            } else {
                guard ContinuousClock.now < deadline else { throw Errno(rawValue: ETIMEDOUT) }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// Sends a request and returns the reply.
    func request(_ line: String) async throws -> [String: Any] {
        write(line + "\n")
        return try #require(try await readObject())
    }
}

/// A fresh temporary directory, removed after `body`.
private func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("waypointd-control-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Runs a server on a socket in a temporary directory while `body` runs, then stops it and
/// checks that `run()` returned and removed the socket.
private func withServer(
    handler: FakeHandler = FakeHandler(), limits: ControlServer.Limits = ControlServer.Limits(),
    _ body: @Sendable (String, FakeHandler) async throws -> Void
) async throws {
    try await withTemporaryDirectory { directory in
        let path = directory + "/control.sock"
        let server = ControlServer(listener: try UnixSocketListener.bind(path: path), handler: handler, limits: limits)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            do {
                try await body(path, handler)
            } catch {
                server.stop()
                throw error
            }
            server.stop()
            try await group.waitForAll()
        }
        #expect(try FileSystem.kind(of: path) == nil, "the socket file is removed on stop")
    }
}

private func connectGreeted(_ path: String) async throws -> TestClient {
    let client = try TestClient(path: path)
    let greeting = try #require(try await client.readObject())
    #expect(greeting["class"] as? String == "VERSION")
    return client
}

// MARK: - Tests

@Suite("Control server over a real UNIX socket", .timeLimit(.minutes(5)))
struct ControlServerTests {
    @Test("a client is greeted with the release and protocol version")
    func greets() async throws {
        try await withServer { path, _ in
            let client = try TestClient(path: path)
            let greeting = try #require(try await client.readObject())
            #expect(greeting["class"] as? String == "VERSION")
            #expect(greeting["release"] as? String == Release.version)
            #expect(greeting["proto"] as? Int == 1)
        }
    }

    @Test("the socket file has mode 0660")
    func socketMode() async throws {
        try await withServer { path, _ in
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o660)
            #expect((attributes[.type] as? FileAttributeType) == .typeSocket)
        }
    }

    @Test("go, clear, status and recent reach the handler and get their replies")
    func commands() async throws {
        try await withServer { path, handler in
            let client = try await connectGreeted(path)
            #expect(try await client.request(#"{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Eiffel"}"#)["class"] as? String == "OK")
            #expect(try await client.request(#"{"cmd":"go","lat":0,"lon":-180}"#)["class"] as? String == "OK")
            #expect(handler.goes.withLock { $0 } == [
                SavedDestination(coordinate: Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945), name: "Eiffel"),
                SavedDestination(coordinate: Coordinate(uncheckedLatitudeDegrees: 0, longitudeDegrees: -180)),
            ])
            let failed = try await client.request(#"{"cmd":"go","lat":1,"lon":1,"name":"fail"}"#)
            #expect(failed["class"] as? String == "ERROR")
            #expect(failed["code"] as? String == "internal")
            #expect(failed["message"] as? String == "disk full")

            #expect(try await client.request(#"{"cmd":"clear"}"#)["class"] as? String == "OK")
            #expect(handler.clears.withLock { $0 } == 1)

            let status = try await client.request(#"{"cmd":"status"}"#)
            #expect(status["class"] as? String == "STATUS")
            #expect(status["state"] as? String == "guiding")
            #expect(status["bearing"] as? Double == 45)
            #expect(status["muted"] as? Bool == false)
            let fix = try #require(status["fix"] as? [String: Any])
            #expect(fix["mode"] as? Int == 3)
            #expect(fix["eph"] as? Double == 4)
            let heading = try #require(status["heading"] as? [String: Any])
            #expect(heading["true"] as? Double == 10)
            #expect(heading["reliable"] as? Bool == true)
            let destination = try #require(status["destination"] as? [String: Any])
            #expect(destination["name"] as? String == "Eiffel")

            let recent = try await client.request(#"{"cmd":"recent"}"#)
            #expect(recent["class"] as? String == "RECENT")
            let list = try #require(recent["destinations"] as? [[String: Any]])
            #expect(list.count == 2)
            #expect(list[0]["name"] as? String == "Opera")
            #expect(list[1]["name"] is NSNull)
            #expect(list[1]["lon"] as? Double == 2)
        }
    }

    @Test("malformed and invalid requests get ERROR replies with their codes, and the client stays connected")
    func errors() async throws {
        try await withServer { path, handler in
            let client = try await connectGreeted(path)
            let cases: [(String, [String])] = [
                (#"{"cmd":"go","#, ["bad-json"]),
                (#"{"cmd":"jump"}"#, ["unknown-command"]),
                (#"{"cmd":"go","lat":91,"lon":0}"#, ["bad-argument"]),
                (#"{"cmd":"go","lat":NaN,"lon":0}"#, ["bad-json", "bad-argument"]),
                (#"{"cmd":"go","lat":0,"lon":1e400}"#, ["bad-json", "bad-argument"]),
                (#"{"cmd":"go","lat":0,"lon":0,"name":"\#(String(repeating: "n", count: 101))"}"#, ["bad-argument"]),
            ]
            for (line, codes) in cases {
                let reply = try await client.request(line)
                #expect(reply["class"] as? String == "ERROR", "\(line)")
                #expect(codes.contains(reply["code"] as? String ?? ""), "\(line): \(reply)")
                #expect((reply["message"] as? String)?.isEmpty == false)
            }
            #expect(handler.goes.withLock { $0.isEmpty })
            #expect(try await client.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("a 70 000-byte line (the limit is 65 536) is refused as line-too-long, and the next line is served")
    func overlongLine() async throws {
        try await withServer { path, _ in
            let client = try await connectGreeted(path)
            client.write(#"{"cmd":"status","pad":""# + String(repeating: "x", count: 70_000) + "\"}\n")
            let reply = try #require(try await client.readObject())
            #expect(reply["code"] as? String == "line-too-long")
            #expect(try await client.request(#"{"cmd":"clear"}"#)["class"] as? String == "OK")
        }
    }

    @Test("empty lines are ignored")
    func emptyLines() async throws {
        try await withServer { path, _ in
            let client = try await connectGreeted(path)
            client.write("\n \r\n")
            #expect(try await client.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("a request split across writes is served once whole")
    func splitRequest() async throws {
        try await withServer { path, _ in
            let client = try await connectGreeted(path)
            client.write(#"{"cmd":"#)
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await client.request(#""clear"}"#)["class"] as? String == "OK")
        }
    }

    @Test("a client that disconnects mid-line is forgotten and its partial request is not run")
    func disconnectMidLine() async throws {
        try await withServer { path, handler in
            do {
                let client = try await connectGreeted(path)
                client.write(#"{"cmd":"go","lat":1,"lon":2"#)
            }
            let other = try await connectGreeted(path)
            #expect(try await other.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
            #expect(handler.goes.withLock { $0.isEmpty })
        }
    }

    @Test("20 clients at once are each served")
    func concurrentClients() async throws {
        try await withServer { path, handler in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let client = try await connectGreeted(path)
                        for _ in 0..<3 {
                            #expect(try await client.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
                        }
                        #expect(try await client.request(#"{"cmd":"go","lat":\#(index),"lon":0}"#)["class"] as? String == "OK")
                    }
                }
                try await group.waitForAll()
            }
            #expect(handler.goes.withLock { $0.count } == 20)
        }
    }

    @Test("a client over the limit is told so and disconnected")
    func clientLimit() async throws {
        var limits = ControlServer.Limits()
        limits.clients = 1
        try await withServer(limits: limits) { path, _ in
            let first = try await connectGreeted(path)
            let second = try TestClient(path: path)
            let refusal = try #require(try await second.readObject())
            #expect(refusal["class"] as? String == "ERROR")
            #expect(refusal["code"] as? String == "too-many-clients")
            #expect(try await second.readLine() == nil)
            #expect(try await first.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("stopping disconnects connected clients")
    func stopDisconnects() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/control.sock"
            let server = ControlServer(listener: try UnixSocketListener.bind(path: path), handler: FakeHandler())
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                let client = try await connectGreeted(path)
                server.stop()
                #expect(try await client.readLine() == nil)
                try await group.waitForAll()
            }
        }
    }

    @Test("cancelling the task running the server stops it")
    func cancellationStops() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/control.sock"
            let server = ControlServer(listener: try UnixSocketListener.bind(path: path), handler: FakeHandler())
            let task = Task { try await server.run() }
            let client = try await connectGreeted(path)
            task.cancel()
            #expect(try await client.readLine() == nil)
            try await task.value
        }
    }

    @Test("go recent, mute, calibrate and buzz reach the handler with their arguments and defaults")
    func newerCommands() async throws {
        try await withServer { path, handler in
            let client = try await connectGreeted(path)
            #expect(try await client.request(#"{"cmd":"go","recent":2}"#)["class"] as? String == "OK")
            let missing = try await client.request(#"{"cmd":"go","recent":5}"#)
            #expect(missing["code"] as? String == "not-found")
            #expect(try await client.request(#"{"cmd":"mute","on":true}"#)["class"] as? String == "OK")
            #expect(try await client.request(#"{"cmd":"mute","on":false}"#)["class"] as? String == "OK")
            let progress = try await client.request(#"{"cmd":"calibrate","action":"start"}"#)
            #expect(progress["class"] as? String == "CALIBRATION")
            #expect(progress["state"] as? String == "running")
            #expect(progress["samples"] as? Int == 12)
            #expect(progress["octants"] as? [Int] == [1, 2, 3, 4, 0, 0, 1, 1])
            #expect(progress["quality"] is NSNull)
            #expect(try await client.request(#"{"cmd":"calibrate"}"#)["class"] as? String == "CALIBRATION")
            let refused = try await client.request(#"{"cmd":"calibrate","action":"finish"}"#)
            #expect(refused["code"] as? String == "refused")
            #expect(refused["message"] as? String == "not enough coverage")
            #expect(try await client.request(#"{"cmd":"buzz"}"#)["class"] as? String == "OK")
            #expect(try await client.request(#"{"cmd":"buzz","pattern":"gps-lost"}"#)["class"] as? String == "OK")
            #expect(
                handler.calls.withLock { $0 } == [
                    "go-recent 2", "go-recent 5", "mute true", "mute false", "calibrate start", "calibrate status",
                    "calibrate finish", "buzz test", "buzz gps-lost",
                ])
        }
    }

    @Test(
        "requests with wrong types or values are refused as bad-argument without reaching the handler",
        arguments: [
            #"{"cmd":"mute"}"#, #"{"cmd":"mute","on":"yes"}"#, #"{"cmd":"mute","on":1}"#,
            #"{"cmd":"calibrate","action":"begin"}"#, #"{"cmd":"calibrate","action":3}"#,
            #"{"cmd":"buzz","pattern":"loud"}"#, #"{"cmd":"watch","hz":0}"#, #"{"cmd":"watch","hz":50}"#,
            #"{"cmd":"watch","enable":"on"}"#, #"{"cmd":"go","recent":0}"#, #"{"cmd":"go","recent":1.5}"#,
            #"{"cmd":"go","recent":"1"}"#, #"{"cmd":"go","recent":1,"lat":1,"lon":2}"#,
        ])
    func badArguments(line: String) async throws {
        try await withServer { path, handler in
            let client = try await connectGreeted(path)
            let reply = try await client.request(line)
            #expect(reply["code"] as? String == "bad-argument", "\(line): \(reply)")
            #expect(handler.calls.withLock { $0.isEmpty })
        }
    }

    @Test("invalid UTF-8 is bad JSON, and the client is still served")
    func invalidUTF8() async throws {
        try await withServer { path, _ in
            let client = try await connectGreeted(path)
            client.write(Array(#"{"cmd":"go","name":""#.utf8) + [0xC3, 0x28, 0xFF] + Array("\"}\n".utf8))
            #expect(try #require(try await client.readObject())["code"] as? String == "bad-json")
            #expect(try await client.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("watch answers OK, then sends STATUS lines at its rate until disabled; no update follows the disabling OK")
    func watch() async throws {
        try await withServer { path, _ in
            let client = try await connectGreeted(path)
            let start = ContinuousClock.now
            #expect(try await client.request(#"{"cmd":"watch","enable":true,"hz":10}"#)["class"] as? String == "OK")
            for _ in 0..<5 {
                #expect(try await client.readObject()?["class"] as? String == "STATUS")
            }
            // Five updates at 10 Hz, the first at once: at least 0.4 s.
            #expect(ContinuousClock.now - start >= .milliseconds(390))
            client.write(#"{"cmd":"watch","enable":false}"# + "\n")
            var reply = try #require(try await client.readObject())
            while reply["class"] as? String == "STATUS" { reply = try #require(try await client.readObject()) }
            #expect(reply["class"] as? String == "OK")
            // Nothing more arrives: the next line is the reply to this request.
            #expect(try await client.request(#"{"cmd":"clear"}"#)["class"] as? String == "OK")
        }
    }

    @Test("a watcher that never reads is dropped once its output passes the limit; other clients are served meanwhile")
    func slowWatcherDropped() async throws {
        var limits = ControlServer.Limits()
        limits.outputBytes = 4096
        try await withServer(limits: limits) { path, handler in
            let slow = try TestClient(path: path)
            slow.write(#"{"cmd":"watch","hz":10}"# + "\n")
            let other = try await connectGreeted(path)
            // The kernel's buffer is capped to the limit too (doubled, with a floor), so 60 updates
            // of ~500 bytes in 6 s overflow both; the other client is served meanwhile.
            let watchStart = ContinuousClock.now
            while ContinuousClock.now - watchStart < .seconds(6) {
                #expect(try await other.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
                try await Task.sleep(for: .milliseconds(250))
            }
            // Dropped: what was queued can still be read, then the stream ends well short of
            // the updates sent meanwhile.
            var lines = 0
            while try await slow.readLine(timeout: .seconds(5)) != nil { lines += 1 }
            #expect(lines > 0, "the watcher got updates before it was dropped")
            #expect(lines < 50, "the watcher was dropped, not served all along")
            #expect(try await other.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("a client whose requests go unanswered is not read further: it cannot push megabytes into the server")
    func backpressure() async throws {
        let handler = FakeHandler()
        handler.statusHeld.withLock { $0 = true }
        try await withServer(handler: handler) { path, handler in
            let client = try await connectGreeted(path)
            let line = Array(#"{"cmd":"status"}"#.utf8) + [10]
            // Pipeline until the socket takes no more; with nothing answered, the server reads
            // only its permits' worth, so the kernel's buffers fill and writes stop.
            var sent = 0
            var stalls = 0
            var rest: ArraySlice<UInt8> = []
            while sent < 64 << 20 {
                let count = client.writeWithoutBlocking(line)
                if count == line.count {
                    sent += 1
                    stalls = 0
                    continue
                }
                if count > 0 {
                    rest = line[count...]
                    break
                }
                stalls += 1
                if stalls > 50 { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            let sentBytes = sent * line.count
            #expect(sentBytes < 4 << 20, "the server took \(sentBytes) bytes of requests it had not answered")
            #expect(handler.statusCount.withLock { $0 } == 1, "one request is being answered, the rest wait")
            handler.statusHeld.withLock { $0 = false }
            if !rest.isEmpty { client.write(Array(rest)) }
            let expected = sent + (rest.isEmpty ? 0 : 1)
            for index in 0..<expected {
                let reply = try #require(try await client.readObject(), "reply \(index) of \(expected)")
                #expect(reply["class"] as? String == "STATUS")
            }
            #expect(handler.statusCount.withLock { $0 } == expected, "every request is answered once")
        }
    }

    @Test("a quiet client is sent a timeout error and closed, freeing its slot; watchers and busy clients stay")
    func idleTimeout() async throws {
        var limits = ControlServer.Limits()
        limits.clients = 3
        limits.idleTimeout = .milliseconds(600)
        try await withServer(limits: limits) { path, _ in
            let silent = try await connectGreeted(path)
            let watcher = try await connectGreeted(path)
            #expect(try await watcher.request(#"{"cmd":"watch","hz":5}"#)["class"] as? String == "OK")
            let busy = try await connectGreeted(path)
            // All three slots are taken.
            let refused = try TestClient(path: path)
            #expect(try await refused.readObject()?["code"] as? String == "too-many-clients")

            let start = ContinuousClock.now
            // The busy client asks every 200 ms.
            while ContinuousClock.now - start < .milliseconds(1500) {
                #expect(try await busy.request(#"{"cmd":"clear"}"#)["class"] as? String == "OK")
                try await Task.sleep(for: .milliseconds(200))
            }
            let timeout = try #require(try await silent.readObject(timeout: .seconds(2)))
            #expect(timeout["class"] as? String == "ERROR")
            #expect(timeout["code"] as? String == "timeout")
            #expect(timeout["message"] as? String == "no request for 1 s; closing the connection")
            #expect(try await silent.readLine(timeout: .seconds(2)) == nil, "closed after the error")
            // The watcher is still served, and its slot is its own.
            var updates = 0
            while let line = try await watcher.readLine(timeout: .milliseconds(500)),
                String(decoding: line, as: UTF8.self).contains("STATUS")
            {
                updates += 1
                if updates > 5 { break }
            }
            #expect(updates > 5, "the watcher kept its updates")
            // The freed slot serves a new client.
            let newcomer = try await connectGreeted(path)
            #expect(try await newcomer.request(#"{"cmd":"status"}"#)["class"] as? String == "STATUS")
        }
    }

    @Test("a client that sends a byte at a time without ever ending a line is closed at the idle timeout")
    func slowLoris() async throws {
        var limits = ControlServer.Limits()
        limits.idleTimeout = .milliseconds(500)
        try await withServer(limits: limits) { path, _ in
            let loris = try await connectGreeted(path)
            let start = ContinuousClock.now
            var closedAfter: Duration?
            while ContinuousClock.now - start < .seconds(3) {
                if loris.writeWithoutBlocking([UInt8(ascii: " ")]) == 0 { break }
                if let line = try? await loris.readLine(timeout: .milliseconds(100)) {
                    #expect(String(decoding: line, as: UTF8.self).contains(#""code":"timeout""#))
                    closedAfter = ContinuousClock.now - start
                    break
                }
            }
            let after = try #require(closedAfter, "the slow client was never closed")
            #expect(after < .milliseconds(1500), "closed after \(after)")
        }
    }
}
