import ControlProtocol
import DaemonClient
import SystemSupport
import Testing
import WebCompanion

/// A page knows its own changes by their id, not by a guess: the STATUS after a change made
/// through the companion goes to every page at once, marked with the id the page sent
/// (`X-Change-Id`), so the page that made it does not announce it a second time.
@Suite("A page's own change, marked", .timeLimit(.minutes(5)))
struct OwnChangeTests {
    /// The next bytes the stream has (it waits for them).
    static func read(_ stream: any HTTPStream) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { stream.read(into: $0) } ?? 0
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    @Test("a change sends the STATUS after it to every page, marked with the page's id; a bad id is not echoed")
    func marked() throws {
        // No watcher is started: every event on the stream is one the router published.
        let hub = EventHub(logger: Logger(label: "test", level: .error, handler: StandardErrorLogHandler())) {
            () throws(ConnectionError) -> ControlConnection in throw .closed(path: "none")
        }
        let link = FakeDaemonLink(replies: ["status": [#"{"class":"STATUS","state":"idle"}"#]])
        let setup = try CompanionRouterTests.Setup(link: link, events: hub)
        let stream = try #require(hub.subscribe())
        defer { stream.finish() }
        #expect(Self.read(stream).hasPrefix("retry:"))

        let response = setup.request("POST", "/api/request", body: #"{"cmd":"clear"}"#, headers: ["x-change-id": "page-1"])
        #expect(response.status == 200)
        #expect(link.sent == [.clear, .status])
        let event = Self.read(stream)
        #expect(event.hasPrefix("event: status\ndata: {"), "\(event)")
        #expect(event.contains(#""change":"page-1""#) && event.contains(#""state":"idle""#), "\(event)")

        // An id that is not printable ASCII within 64 bytes is not echoed into the stream.
        _ = setup.request("POST", "/api/request", body: #"{"cmd":"mute","on":true}"#, headers: ["x-change-id": "a\u{7F}b"])
        let unmarked = Self.read(stream)
        #expect(unmarked.hasPrefix("event: status") && !unmarked.contains("change"), "\(unmarked)")
    }
}
