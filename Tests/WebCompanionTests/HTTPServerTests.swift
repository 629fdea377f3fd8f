import Foundation
import SystemSupport
import Testing
import TextFormats
import TestSupport
import WebCompanion

/// The libmicrohttpd server's bounds, over real TCP connections on loopback: each limit with an
/// input far past it.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HTTPServerTests {
    final class Server {
        let server: HTTPServer
        let port: UInt16

        init(
            limits: HTTPServer.Limits = HTTPServer.Limits(), tls: (certificate: String, key: String)? = nil,
            preflight: @escaping HTTPServer.Preflight = { _ in nil }
        ) throws {
            server = HTTPServer(limits: limits, logger: Logger(label: "test", level: .error, handler: StandardErrorLogHandler()), preflight: preflight) {
                request in
                HTTPResponse.json(200, .object(["bytes": .number(Double(request.body.count)), "tooLarge": .bool(request.bodyTooLarge)]))
            }
            var reason = ""
            port = try server.start(address: ListenAddress("127.0.0.1:0", reason: &reason)!, tls: tls)
        }

        deinit { server.stop() }

        /// Sends `head` (and `body`), returns what came back until the server closed or 5 s passed.
        func exchange(_ head: String, body: [UInt8] = []) throws -> String {
            let socket = try TCPClient(port: port)
            try socket.send(Array(head.utf8))
            if !body.isEmpty { try? socket.send(body) }
            return socket.receiveAll(seconds: 5)
        }
    }

    @Test func aBodyPastTheLimitIsRefusedUnread() throws {
        var limits = HTTPServer.Limits()
        limits.bodyBytes = 1000
        let server = try Server(limits: limits)
        // Announced: answered before it is sent.
        var reply = try server.exchange("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 50000000\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(80))")
        // Chunked, with no length: read up to the limit, then dropped; the handler is told.
        let chunk = String(repeating: "x", count: 4000)
        reply = try server.exchange(
            "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n", body: Array("fa0\r\n\(chunk)\r\n0\r\n\r\n".utf8))
        #expect(reply.contains(#"{"bytes":0,"tooLarge":true}"#), "\(reply.suffix(80))")
        reply = try server.exchange("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        #expect(reply.contains(#"{"bytes":5,"tooLarge":false}"#))
    }

    @Test func headersPastTheirRoomAreRefused() throws {
        let server = try Server()
        let reply = try server.exchange("GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "y", count: 64 * 1024))\r\n\r\n")
        #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 431"), "\(reply.prefix(80))")
        #expect(try server.exchange("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    }

    @Test func aRefusalBeforeTheBodySavesReadingIt() throws {
        let server = try Server(preflight: { $0.header("authorization") == nil ? .error(401, "no") : nil })
        let reply = try server.exchange("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3000000\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 401"), "\(reply.prefix(80))")
    }

    @Test func httpsWithTheCertificateGiven() throws {
        let openssl = try ExternalTool.find("openssl", hint: "apt-get install openssl")
        let curl = try ExternalTool.find("curl", hint: "apt-get install curl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
        let made = try ExternalTool.run(
            openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
                "-days", "1", "-keyout", key, "-out", certificate])
        try #require(made.status == 0, "\(made.standardError)")
        let server = try Server(
            tls: (try String(contentsOfFile: certificate, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8)))
        let secure = try ExternalTool.run(curl, ["-s", "--cacert", certificate, "-d", "hello", "https://127.0.0.1:\(server.port)/x"])
        #expect(secure.standardOutput == #"{"bytes":5,"tooLarge":false}"#, "\(secure.standardError)")
        // Plain HTTP to the TLS port is no request.
        let plain = try ExternalTool.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/x"])
        #expect(plain.standardOutput != "200")
    }

    @Test func slowClientsHoldOnlyTheirOwnThreads() throws {
        var limits = HTTPServer.Limits()
        limits.quietSeconds = 2
        let server = try Server(limits: limits)
        // Forty connections that never finish their request: past the 32 threads.
        let stalled = try (0..<40).map { _ in try TCPClient(port: server.port) }
        for client in stalled { try? client.send(Array("GET / HTTP/1.1\r\nHo".utf8)) }
        // Once the quiet ones are closed (2 s), a real client is answered.
        Thread.sleep(forTimeInterval: 2.5)
        let reply = try server.exchange("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(80))")
        // Every stalled connection is closed: the 32 served at once by now, the others refused
        // past the limit or closed a quiet period after they were taken.
        #expect(stalled.filter { $0.receiveAll(seconds: 2.0 * Double(limits.quietSeconds)).isEmpty && !$0.isClosed }.isEmpty)
    }
}

/// A blocking TCP client on loopback, for the server's tests.
final class TCPClient {
    private let descriptor: Int32
    private(set) var isClosed = false

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            offset += sent
        }
    }

    /// Everything received until the peer closes or `seconds` pass.
    func receiveAll(seconds: Double) -> String {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            // The end, or a reset (a connection closed with our bytes unread): closed either way.
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { isClosed = true }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
