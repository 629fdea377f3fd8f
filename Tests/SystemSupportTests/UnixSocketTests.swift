import Foundation
@preconcurrency import Glibc
import Synchronization
import Testing

@testable import SystemSupport

private func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("waypointd-socket-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
}

@Suite("UNIX stream sockets")
struct UnixSocketTests {
    @Test("bind sets the mode, accepts a client with FD_CLOEXEC, and close removes the file")
    func bindAcceptClose() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let listener = try UnixSocketListener.bind(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        let client = try UnixSocketConnection.connect(to: path)
        let server = try #require(try listener.accept())
        #expect(fcntl(server.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(listener.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(server.send(Array("hello\n".utf8)) == .sent)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try client.receive(into: raw) }
        #expect(Array(buffer[..<count]) == Array("hello\n".utf8))
        server.shutdown()
        #expect(try buffer.withUnsafeMutableBytes { raw throws(Errno) in try client.receive(into: raw) } == 0)
        #expect(server.send([1]) == .closed)
        server.close()
        client.close()
        listener.close()
        #expect(try FileSystem.kind(of: path) == nil)
    }

    @Test("a stale socket file is replaced; a live one, or a regular file, is left alone")
    func staleSockets() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let live = try UnixSocketListener.bind(path: path)
        #expect(throws: UnixSocketError.alreadyListening(path: path)) { try UnixSocketListener.bind(path: path) }
        // Closing the descriptor without removing the file leaves what a crash leaves.
        try FileDescriptor(rawValue: live.descriptor).close()
        let replacement = try UnixSocketListener.bind(path: path, permissions: 0o600)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        replacement.close()

        let file = directory + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        #expect(throws: UnixSocketError.notASocket(path: file)) { try UnixSocketListener.bind(path: file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
        #expect(throws: UnixSocketError.invalidPath(String(repeating: "a", count: 200))) {
            try UnixSocketListener.bind(path: String(repeating: "a", count: 200))
        }
    }

    @Test("stop wakes a thread waiting in accept; adopt takes only a listening socket")
    func stopAndAdopt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let bound = try UnixSocketListener.bind(path: path)
        let adopted = try UnixSocketListener.adopt(descriptor: dup(bound.descriptor))
        #expect(adopted.path == nil)
        let result = Mutex<Bool?>(nil)
        try BlockingThread.start {
            let accepted = (try? adopted.accept()) ?? nil
            result.withLock { $0 = accepted == nil }
        }
        try await Task.sleep(for: .milliseconds(50))
        adopted.stop()
        let deadline = ContinuousClock.now + .seconds(10)
        while result.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(result.withLock { $0 } == true)
        #expect(try adopted.accept() == nil, "stop is permanent")
        // The adopted listener has no path: closing it leaves the socket file alone.
        adopted.close()
        #expect(try FileSystem.kind(of: path) == .other)
        bound.close()
        #expect(try FileSystem.kind(of: path) == nil)
        #expect(throws: UnixSocketError.self) { try UnixSocketListener.adopt(descriptor: 0) }
        #expect(throws: UnixSocketError.connectFailed(path: path, .noSuchFileOrDirectory)) {
            try UnixSocketConnection.connect(to: path)
        }
    }

    @Test("a peer that does not read is dropped once its backlog passes the limit, without blocking")
    func slowReaderDropped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let listener = try UnixSocketListener.bind(path: path)
        defer { listener.close() }
        let client = try UnixSocketConnection.connect(to: path)
        defer { client.close() }
        let server = try #require(try listener.accept())
        defer { server.close() }
        let line = [UInt8](repeating: 65, count: 1000) + [10]
        var outcomes: [UnixSocketConnection.SendOutcome] = []
        for _ in 0..<10_000 {
            let outcome = server.send(line)
            outcomes.append(outcome)
            if outcome == .droppedOverLimit { break }
        }
        #expect(outcomes.last == .droppedOverLimit)
        #expect(outcomes.contains { if case .queued = $0 { true } else { false } })
        #expect(server.send(line) == .closed)
    }
}
