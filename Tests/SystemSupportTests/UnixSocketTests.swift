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

@Suite("UNIX stream sockets", .timeLimit(.minutes(5)))
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
        // A listener's socket needs a file mode: an abstract name would let anyone connect.
        #expect(throws: UnixSocketError.invalidPath("@waypointd")) { try UnixSocketListener.bind(path: "@waypointd") }
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
        try BlockingThread.start(name: "test client") {
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

    @Test("an @name binds and connects in the abstract namespace, exactly that long, with no file; bad names are refused")
    func abstractName() throws {
        let name = "@waypointd-socket-\(UUID().uuidString)"
        let listening = try SocketCall.makeStreamSocket().get()
        defer { try? FileDescriptor(rawValue: listening).close() }
        try SocketCall.bind(listening, path: name).get()
        try SocketCall.listen(listening, backlog: 1).get()
        #expect(!FileManager.default.fileExists(atPath: name), "no file named after the address")

        // The kernel reports the name as bound: a NUL, the name, and nothing after it (a
        // length padded to the whole sockaddr_un would bind a name with trailing zeros).
        var bound = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        try #require(named == 0)
        #expect(Int(length) == MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.utf8.count)
        let boundName = withUnsafeBytes(of: &bound.sun_path) { Array($0.prefix(name.utf8.count)) }
        #expect(boundName == [0] + Array(name.utf8.dropFirst()))

        let client = try UnixSocketConnection.connect(to: name)
        defer { client.close() }
        let server = try SocketCall.accept(listening).get()
        try FileDescriptor(rawValue: server).close()
        let second = try SocketCall.makeStreamSocket().get()
        defer { try? FileDescriptor(rawValue: second).close() }
        #expect(throws: Errno.addressInUse, "the name is taken while bound") {
            try SocketCall.bind(second, path: name).get()
        }

        for bad in ["", "@", "@a\u{0}b", "a\u{0}b", "@" + String(repeating: "a", count: SocketCall.maximumPathLength)] {
            #expect(SocketCall.withAddress(bad) { _, _ in () } == nil, "\(bad.debugDescription) is refused")
            #expect(throws: Errno.invalidArgument) { try SocketCall.bind(second, path: bad).get() }
            #expect(throws: Errno.invalidArgument) { try SocketCall.connect(second, path: bad).get() }
            #expect(throws: Errno.invalidArgument) {
                try SocketCall.sendDatagram(second, UnsafeRawBufferPointer(start: nil, count: 0), to: bad).get()
            }
        }
        #expect(SocketCall.withAddress("@" + String(repeating: "a", count: SocketCall.maximumPathLength - 1)) { _, _ in () } != nil)
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
