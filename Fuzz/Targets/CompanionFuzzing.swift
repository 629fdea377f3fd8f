@preconcurrency import Glibc
import ControlProtocol
import SystemSupport
import TextFormats
import WebCompanion

/// The companion's router under any request (`FuzzTarget.companion`), against a scripted
/// daemon: a request is `METHOD PATH?QUERY`, then `name: value` header lines, an empty line,
/// then the body. A valid `Host` and a session are added unless the input gives its own, so
/// the fuzzer reaches the API rather than stopping at the checks.
enum CompanionFuzzing {
    /// The properties: every answer has a status from 100 to 599; a JSON answer is JSON; and
    /// whatever the router sent the daemon is a request the daemon would read as the same one.
    static func run(_ bytes: [UInt8]) {
        guard let router = shared.router else { return }
        let request = Self.request(from: bytes)
        let response = router.respond(to: request)
        precondition((100..<600).contains(response.status), "status \(response.status)")
        if response.header("Content-Type") == "application/json" {
            precondition((try? JSONParser.parse(response.bytes)) != nil, "not JSON: \(response.bytes.prefix(200))")
        }
        for sent in shared.daemon.takeSent() {
            precondition((try? ControlRequest(line: sent.line.dropLast())) == sent, "sent \(sent), which reads back otherwise")
        }
        if case .stream(let stream) = response.body { stream.finish() }
    }

    static func request(from bytes: [UInt8]) -> HTTPRequest {
        let split = bytes.firstRange(of: [10, 10]) ?? bytes.endIndex..<bytes.endIndex
        let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = head.first.map { $0.split(separator: " ", maxSplits: 1) } ?? []
        let target = line.count > 1 ? String(line[1]) : "/"
        let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if pathAndQuery.count > 1 {
            for pair in pathAndQuery[1].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        var headers = ["host": "127.0.0.1:8740", "authorization": "Bearer \(shared.token)"]
        for header in head.dropFirst().prefix(HTTPServerFuzzLimit.headers) {
            guard let colon = header.firstIndex(of: ":") else { continue }
            headers[header[..<colon].lowercased()] = String(header[header.index(after: colon)...].drop { $0 == " " })
        }
        return HTTPRequest(
            method: line.first.map(String.init) ?? "GET", path: String(pathAndQuery.first ?? "/"), headers: headers, query: query,
            body: Array(bytes[split.upperBound...]))
    }

    /// The router and its daemon, made once per process.
    struct Shared: Sendable {
        let router: CompanionRouter?
        let daemon: ScriptedDaemon
        let token: String
    }

    /// The session book's directory, this process's own, removed at exit.
    static let directory = "/tmp/waypoint-fuzz-companion-\(getpid())"

    static let shared: Shared = {
        let daemon = ScriptedDaemon()
        let book = SessionBook(directory: directory)
        atexit {
            for folder in ["sessions", "pairings"] {
                let path = CompanionFuzzing.directory + "/" + folder
                for name in (try? FileSystem.names(inDirectory: path, maximum: 1000)) ?? [] { try? FileSystem.removeFile(path + "/" + name) }
                rmdir(path)
            }
            rmdir(CompanionFuzzing.directory)
        }
        guard let session = try? book.makeSession(kind: "script", name: "fuzz", now: 1_000_000, days: 30) else {
            return Shared(router: nil, daemon: daemon, token: "")
        }
        var reason = ""
        let address = ListenAddress("127.0.0.1:8740", reason: &reason)!
        let files = StaticFiles(files: ["/": ("text/html; charset=utf-8", Array("<!DOCTYPE html>".utf8))])
        let router = CompanionRouter(
            .init(
                daemon: daemon, sessions: book, events: nil, files: files, tiles: nil,
                guardian: RequestGuard(address: address, names: ["waypoint.local"], tls: false), sessionDays: 30, tls: false,
                wallSeconds: { 1_000_100 }, monotonicSeconds: { 5_000 }))
        return Shared(router: router, daemon: daemon, token: session.token)
    }()
}

/// How many header lines of an input are read.
enum HTTPServerFuzzLimit {
    static let headers = 64
}
