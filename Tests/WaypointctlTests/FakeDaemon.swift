import Foundation
import Synchronization

/// A stand-in for waypointd on a temporary UNIX socket, so the real `waypointctl` binary can be
/// tested without the daemon: it accepts one connection, sends a greeting, then for each request
/// line it reads sends the next group of scripted reply lines, and records what it was sent.
final class FakeDaemon: Sendable {
    /// The greeting of this protocol version.
    static let greeting = #"{"class":"VERSION","release":"0.1.0","proto":1}"#
    /// How long the fake waits for the client to connect or to send a line, seconds: a client
    /// that never comes must not hang the test run.
    static let waitSeconds: Int32 = 15

    /// What to do once every scripted reply is sent.
    enum Ending: Sendable {
        /// Read on until the client hangs up (the daemon keeps the connection).
        case waitForClient
        /// Close the connection at once (the daemon went away).
        case close
    }

    /// The socket path to pass as `--socket`.
    let path: String
    private let directory: String
    private let listener: Int32
    /// The request lines, shared with the serving thread.
    private final class Record: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let requestLines = Record()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening and serving one client on a thread of its own.
    /// - Parameters:
    ///   - greeting: The first line sent, or nil to send none.
    ///   - replies: For each request line, in order, the lines to answer it with.
    ///   - ending: What to do after the last group.
    init(greeting: String? = FakeDaemon.greeting, replies: [[String]], ending: Ending = .waitForClient) throws {
        var template = Array("/tmp/waypointctl-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        directory = String(cString: made)
        path = directory + "/control.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let requestLines = self.requestLines
        let finished = self.finished
        Thread {
            Self.serve(listener: listener, greeting: greeting, replies: replies, ending: ending, record: requestLines)
            finished.signal()
        }.start()
    }

    deinit {
        close(listener)
        unlink(path)
        rmdir(directory)
    }

    /// The request lines received so far, without newlines.
    var requests: [String] { requestLines.lines.withLock { $0 } }

    /// Waits until the fake has served its client (or given up waiting for one). Called once
    /// the client has exited: if it never connected (a usage error found before any
    /// connection), a connection of our own, closed at once, ends the wait for it now rather
    /// than after ``waitSeconds``, which would hold a thread of the test pool that long.
    func waitUntilFinished() {
        guard finished.wait(timeout: .now() + .milliseconds(200)) == .timedOut else { return }
        let poke = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(path)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(poke, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(poke)
        _ = finished.wait(timeout: .now() + .seconds(Int(Self.waitSeconds) + 5))
    }

    /// The socket address of `path`.
    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        return address
    }

    private static func serve(
        listener: Int32, greeting: String?, replies: [[String]], ending: Ending, record: Record
    ) {
        guard waitForInput(listener) else { return }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        var buffer: [UInt8] = []
        if let greeting { send(client, greeting) }
        for group in replies {
            guard let line = readLine(client, buffer: &buffer) else { return }
            record.lines.withLock { $0.append(line) }
            for reply in group { send(client, reply) }
        }
        if case .waitForClient = ending {
            while let line = readLine(client, buffer: &buffer) { record.lines.withLock { $0.append(line) } }
        }
    }

    private static func waitForInput(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, waitSeconds * 1000) == 1
    }

    private static func send(_ descriptor: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line from the client, or nil at its end (or after waiting too long).
    private static func readLine(_ descriptor: Int32, buffer: inout [UInt8]) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard waitForInput(descriptor) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}
