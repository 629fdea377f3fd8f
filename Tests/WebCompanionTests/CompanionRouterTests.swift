import ControlProtocol
import DaemonClient
import Foundation
import Synchronization
import SystemSupport
import Testing
import TestSupport
import WebCompanion

/// The companion's answers, request by request, with the daemon scripted (`FakeDaemonLink`) and
/// the session book in a temporary directory. The real server and the real daemon are in
/// `CompanionEndToEndTests` (WaypointdTests) and the browser scripts.
@Suite(.timeLimit(.minutes(5))) struct CompanionRouterTests {
    static let host = "127.0.0.1:8740"

    final class Setup {
        let directory: URL
        let link: FakeDaemonLink
        let router: CompanionRouter
        let book: SessionBook
        let clock = TestClock()
        let token: String

        init(link: FakeDaemonLink = FakeDaemonLink(), files: StaticFiles? = nil, events: EventHub? = nil, tiles: TileSource? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
            self.link = link
            book = SessionBook(directory: directory.path)
            var reason = ""
            let address = ListenAddress(CompanionRouterTests.host, reason: &reason)!
            let clock = clock
            router = CompanionRouter(
                .init(
                    daemon: link, sessions: book, events: events,
                    files: files ?? StaticFiles(files: ["/": ("text/html; charset=utf-8", Array("<!DOCTYPE html>".utf8))]),
                    tiles: tiles, guardian: RequestGuard(address: address, names: [], tls: false), sessionDays: 30, tls: false,
                    wallSeconds: { clock.now }, monotonicSeconds: { clock.now }))
            token = try book.makeSession(kind: "script", name: "test", now: 1_000_000, days: 30).token
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func advance(_ seconds: Double) { clock.advance(seconds) }

        func request(
            _ method: String, _ path: String, body: String = "", query: [String: String] = [:], authorized: Bool = true,
            headers extra: [String: String] = [:]
        ) -> HTTPResponse {
            var headers = ["host": CompanionRouterTests.host]
            if authorized { headers["authorization"] = "Bearer \(token)" }
            headers.merge(extra) { $1 }
            return router.respond(to: HTTPRequest(method: method, path: path, headers: headers, query: query, body: Array(body.utf8)))
        }
    }

    static func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.bytes))) as? [String: Any] ?? [:]
    }

    @Test func everyRequestOfTheAPINeedsASession() throws {
        let setup = try Setup()
        for (method, path) in [
            ("GET", "/api/status"), ("GET", "/api/events"), ("POST", "/api/request"), ("POST", "/api/place"), ("POST", "/api/route"),
            ("GET", "/api/trail.gpx"), ("GET", "/api/map"), ("GET", "/tiles/1/0/0"),
        ] {
            let response = setup.request(method, path, body: #"{"cmd":"clear"}"#, authorized: false)
            #expect(response.status == 401, "\(method) \(path)")
            #expect(Self.json(response)["error"] as? String != nil)
            let forged = setup.request(method, path, authorized: false, headers: ["authorization": "Bearer " + String(repeating: "a", count: 64)])
            #expect(forged.status == 401, "a made-up token: \(method) \(path)")
        }
        #expect(setup.link.sent.isEmpty, "nothing reached the daemon")
        // The page itself needs none: it says how to pair.
        #expect(setup.request("GET", "/", authorized: false).status == 200)
    }

    @Test func aRevokedOrExpiredSessionEnds() throws {
        let setup = try Setup()
        #expect(setup.request("GET", "/api/map").status == 200)
        setup.advance(31 * 86_400)
        #expect(setup.request("GET", "/api/map").status == 401, "30 days later")
        let other = try setup.book.makeSession(kind: "phone", name: nil, now: 1_000_000 + 31 * 86_400, days: 30)
        let withOther = ["authorization": "Bearer \(other.token)"]
        #expect(setup.request("GET", "/api/map", authorized: false, headers: withOther).status == 200)
        #expect(try setup.book.revoke(id: other.id))
        #expect(setup.request("GET", "/api/map", authorized: false, headers: withOther).status == 401, "revoked")
        #expect(try !setup.book.revoke(id: other.id), "gone already")
        #expect(try !setup.book.revoke(id: "../../x"), "not an id")
    }

    @Test func thePageAndTheAPICarryTheirProtections() throws {
        let setup = try Setup()
        let page = setup.request("GET", "/", authorized: false)
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("X-Frame-Options") == "DENY" && page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(setup.request("GET", "/api/map").header("Cache-Control") == "no-store")
        #expect(setup.request("GET", "/nope", authorized: false).status == 404)
        #expect(setup.request("POST", "/", authorized: false).status == 405)
    }

    @Test func requestsAreRelayedCheckedAndTheirRefusalsKept() throws {
        let link = FakeDaemonLink(replies: [
            "go": [#"{"class":"ERROR","code":"not-found","message":"no place named Home"}"#],
            "recent": [#"{"class":"RECENT","destinations":[]}"#],
        ])
        let setup = try Setup(link: link)
        var response = setup.request("POST", "/api/request", body: #"{"cmd":"recent"}"#)
        #expect(response.status == 200 && String(decoding: response.bytes, as: UTF8.self) == #"{"class":"RECENT","destinations":[]}"#)
        response = setup.request("POST", "/api/request", body: #"{"cmd":"go","place":"Home"}"#)
        #expect(response.status == 422 && Self.json(response)["message"] as? String == "no place named Home")
        // Checked here as the daemon checks it: a bad request never reaches the socket.
        response = setup.request("POST", "/api/request", body: #"{"cmd":"go","lat":91,"lon":0}"#)
        #expect(response.status == 400 && Self.json(response)["class"] as? String == "ERROR")
        response = setup.request("POST", "/api/request", body: #"{"cmd":"watch"}"#)
        #expect(response.status == 400)
        response = setup.request("POST", "/api/request", body: "{" + String(repeating: " ", count: 70_000) + "}")
        #expect(response.status == 413)
        #expect(link.sent == [.recent, .goPlace("Home")])
        // A foreign page may not post, even with the session.
        response = setup.request("POST", "/api/request", body: #"{"cmd":"clear"}"#, headers: ["origin": "http://evil.example"])
        #expect(response.status == 403)
        response = setup.request("GET", "/api/status", headers: ["host": "evil.example:8740"])
        #expect(response.status == 421)
        #expect(link.sent.count == 2)
    }

    @Test func aDaemonThatDoesNotAnswerIsSaid() throws {
        let setup = try Setup(link: FakeDaemonLink(reachable: false))
        let response = setup.request("GET", "/api/status")
        #expect(response.status == 502)
        // A phone's words (issue 38: "cannot connect to …/d.sock … is waypointd running?"); the
        // socket's own in the detail.
        #expect(Self.json(response)["error"] as? String == "The navigation service on the Pi is not answering.")
        #expect((Self.json(response)["detail"] as? String)?.contains("does not answer") == true)
    }

    /// The box asks what `waypointctl go` asks (``LikelySwap``): `2.2945 48.8584` typed in Paris
    /// is answered with both readings, not set 6 790 km away; `force` sets it as typed.
    @Test func theBoxAsksAboutCoordinatesTypedLongitudeFirst() throws {
        let paris = #"{"class":"STATUS","state":"idle","fix":{"lat":48.8566,"lon":2.3522,"mode":3}}"#
        let link = FakeDaemonLink(replies: ["status": [paris]])
        let setup = try Setup(link: link)
        let asked = setup.request("POST", "/api/place", body: #"{"text":"2.2945 48.8584"}"#)
        let json = Self.json(asked)
        #expect(asked.status == 409, "\(json)")
        #expect((json["meant"] as? [String: Any])?["lat"] as? Double == 48.8584)
        #expect((json["meant"] as? [String: Any])?["dms"] as? String == #"48°51'30.2"N 2°17'40.2"E"#)
        #expect((json["error"] as? String)?.hasPrefix("2.2945 48.8584 is 6790 km from here, but 48.8584 2.2945") == true, "\(json)")
        #expect(!link.sent.contains { if case .go = $0 { true } else { false } }, "nothing set")
        let forced = setup.request("POST", "/api/place", body: #"{"text":"2.2945 48.8584","force":true}"#)
        #expect(forced.status == 200)
        #expect(link.sent.contains(.go(latitude: 2.2945, longitude: 48.8584, name: nil)))
        // Confirmed as the readout writes positions, not in decimals.
        #expect((Self.json(forced)["said"] as? String)?.hasPrefix(#"Guiding to 2°17'40.2"N 48°51'30.2"E"#) == true, "\(Self.json(forced))")
    }

    @Test func theBoxSetsALinkAsTheDestination() throws {
        let link = FakeDaemonLink(replies: ["status": [#"{"class":"STATUS","state":"guiding","distance":1234.5,"bearing":44}"#]])
        let setup = try Setup(link: link)
        let text = "Meet me here: https://www.google.com/maps/place/Eiffel+Tower/@48.85837,2.2922926,17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d48.8583701!4d2.2944813 see you"
        let response = setup.request("POST", "/api/place", body: "{\"text\":\(JSONString(text))}")
        let json = Self.json(response)
        #expect(response.status == 200, "\(json)")
        #expect(json["result"] as? String == "set" && json["name"] as? String == "Eiffel Tower")
        #expect(json["said"] as? String == "Guiding to Eiffel Tower, 1.23 km to the northeast")
        #expect(link.sent.first == .go(latitude: 48.8583701, longitude: 2.2944813, name: "Eiffel Tower"))
    }

    @Test func theBoxCompletesAShortPlusCodeNearTheFix() throws {
        let link = FakeDaemonLink(replies: ["status": [#"{"class":"STATUS","state":"idle","fix":{"lat":48.85,"lon":2.29,"mode":3}}"#]])
        let setup = try Setup(link: link)
        let response = setup.request("POST", "/api/place", body: #"{"text":"V75V+8Q"}"#)
        #expect(response.status == 200, "\(Self.json(response))")
        // 8FW4V75V+8Q's centre, from PyPI's openlocationcode (LocationParserTests).
        guard case .go(let latitude, let longitude, nil, _)? = link.sent.dropFirst().first else {
            Issue.record("no go: \(link.sent)")
            return
        }
        #expect(abs(latitude - 48.8583125) < 1e-9 && abs(longitude - 2.2944375) < 1e-9)
        // Without a fix it says what to do.
        let noFix = try Setup(link: FakeDaemonLink(replies: ["status": [#"{"class":"STATUS","state":"no-fix","fix":null}"#]]))
        let refused = noFix.request("POST", "/api/place", body: #"{"text":"V75V+8Q"}"#)
        #expect(refused.status == 422 && (Self.json(refused)["error"] as? String)?.contains("full code") == true)
    }

    @Test func wordsAreSearchedAndRefusalsSaid() throws {
        let search = #"{"class":"SEARCH","map":"monaco.osm.pbf","results":[{"bearing_deg":12.4,"distance_m":484.2,"kind":"bakery","lat":43.74,"lon":7.42}]}"#
        let setup = try Setup(link: FakeDaemonLink(replies: ["search": [search]]))
        var response = setup.request("POST", "/api/place", body: #"{"text":"bakery"}"#)
        var json = Self.json(response)
        #expect(response.status == 200 && json["result"] as? String == "search" && json["said"] as? String == "1 place found for bakery")
        #expect(((json["search"] as? [String: Any])?["results"] as? [Any])?.count == 1)
        #expect(setup.link.sent == [.search("bakery", latitude: nil, longitude: nil, limit: 10)])
        response = setup.request("POST", "/api/place", body: #"{"text":"https://maps.app.goo.gl/abc123"}"#)
        json = Self.json(response)
        #expect(response.status == 422 && (json["error"] as? String)?.contains("short link") == true, "\(json)")
        #expect(setup.request("POST", "/api/place", body: #"{"words":"x"}"#).status == 400)
    }

    @Test func aGPXUploadBecomesTheRoute() throws {
        let setup = try Setup(link: FakeDaemonLink(replies: ["route": [#"{"class":"ROUTE","route":{"count":2,"finished":false,"name":"Loop","remaining":100,"target":{"lat":46.1,"lon":14.1,"name":null},"waypoint":1}}"#]]))
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1">
            <rte><name>Loop</name><rtept lat="46.1" lon="14.1"/><rtept lat="46.2" lon="14.2"><name>Hut</name></rtept></rte></gpx>
            """
        let response = setup.request("POST", "/api/route", body: gpx)
        let json = Self.json(response)
        #expect(response.status == 200 && json["said"] as? String == "Route loaded from the route \"Loop\" 2 points", "\(json)")
        guard case .route(.load(let name, let waypoints))? = setup.link.sent.first else {
            Issue.record("no route load: \(setup.link.sent)")
            return
        }
        #expect(name == "Loop" && waypoints.map(\.name) == [nil, "Hut"] && waypoints.map(\.latitude) == [46.1, 46.2])
        #expect(setup.request("POST", "/api/route", body: "<html></html>").status == 422)
    }

    @Test func theTrailIsDownloadedPageByPage() throws {
        let pages = [
            #"{"class":"TRACK","next":"c1","points":[{"lat":48.1,"lon":2.1,"seg":true,"t":1796307322},{"lat":48.2,"lon":2.2,"seg":false,"t":1796307382}]}"#,
            #"{"class":"TRACK","next":null,"points":[{"lat":48.3,"lon":2.3,"seg":true,"t":1796307442}]}"#,
        ]
        let setup = try Setup(link: FakeDaemonLink(replies: ["track": pages]))
        let response = setup.request("GET", "/api/trail.gpx")
        let text = String(decoding: response.bytes, as: UTF8.self)
        #expect(response.status == 200 && response.header("Content-Disposition") == "attachment; filename=\"trail.gpx\"")
        #expect(text.components(separatedBy: "<trkseg>").count == 3, "two segments: \(text)")
        #expect(text.components(separatedBy: "<trkpt").count == 4)
        #expect(setup.link.sent == [.track(.export(since: nil, until: nil, cursor: nil)), .track(.export(since: nil, until: nil, cursor: "c1"))])
    }

    @Test func aPairingLinkWorksOnceAndGuessesAreThrottled() throws {
        let setup = try Setup()
        let token = try setup.book.makePairing(now: 1_000_000)
        let first = setup.request("GET", "/pair", query: ["token": token], authorized: false)
        #expect(first.status == 303 && first.header("Location") == "/")
        let cookie = try #require(first.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age=2592000"))
        let second = setup.request("GET", "/pair", query: ["token": token], authorized: false)
        #expect(second.status == 403 && second.header("Set-Cookie") == nil)
        // The cookie opens the API.
        let session = String(cookie.split(separator: ";")[0].split(separator: "=")[1])
        let opened = setup.router.respond(to: HTTPRequest(
            method: "GET", path: "/api/map", headers: ["host": Self.host], cookies: [CompanionRouter.cookieName: session]))
        #expect(opened.status == 200)

        // An old link is refused.
        let old = try setup.book.makePairing(now: 1_000_000)
        setup.advance(SessionBook.pairingSeconds + 1)
        #expect(setup.request("GET", "/pair", query: ["token": old], authorized: false).status == 403)

        // Ten wrong tokens from one address (with the two above: more than enough), then even
        // a right one from there waits; the phone at another address is not locked out.
        let pair = { (token: String, address: String) in
            setup.router.respond(to: HTTPRequest(
                method: "GET", path: "/pair", headers: ["host": Self.host], query: ["token": token], clientAddress: address))
        }
        for _ in 0..<PairingThrottle.maximumFailures { _ = pair(String(repeating: "0", count: 64), "192.0.2.66") }
        let right = try setup.book.makePairing(now: 1_000_000 + SessionBook.pairingSeconds + 1)
        let throttled = pair(right, "192.0.2.66")
        #expect(throttled.status == 429 && throttled.header("Retry-After") == "60")
        #expect(pair(right, "192.0.2.20").status == 303, "the phone, at its own address, pairs")
        let again = try setup.book.makePairing(now: 1_000_000 + SessionBook.pairingSeconds + 1)
        setup.advance(PairingThrottle.lockSeconds)
        #expect(pair(again, "192.0.2.66").status == 303, "a minute later")
    }

    /// Without a session, only GET of the page and the pairing link is read, one request per
    /// connection: nothing past the headers, no body, and the connection closed after.
    @Test func withoutASessionNoBodyIsReadAndTheConnectionCloses() throws {
        let setup = try Setup()
        let admit = { (method: String, path: String, headers: [String: String], authorized: Bool) -> HTTPServer.Admission in
            var all = headers.merging(["host": Self.host]) { $1 }
            if authorized { all["authorization"] = "Bearer \(setup.token)" }
            return setup.router.admit(HTTPRequest(method: method, path: path, headers: all))
        }
        let refusedStatus = { (admission: HTTPServer.Admission) -> Int? in
            if case .refused(let response) = admission { return response.status }
            return nil
        }
        #expect(refusedStatus(admit("POST", "/", ["content-length": "5000000"], false)) == 405, "before its 5 MB body")
        #expect(refusedStatus(admit("PUT", "/app.js", [:], false)) == 405)
        #expect(refusedStatus(admit("GET", "/", ["content-length": "4194304"], false)) == 413)
        #expect(refusedStatus(admit("GET", "/", ["transfer-encoding": "chunked"], false)) == 413)
        #expect(refusedStatus(admit("POST", "/api/route", ["content-length": "4194304"], false)) == 401)
        guard case .admitted(let session) = admit("GET", "/", [:], false) else {
            Issue.record("GET / without a session is refused")
            return
        }
        #expect(!session, "answered, and its connection closed")
        guard case .admitted(let paired) = admit("POST", "/api/route", ["content-length": "4194304"], true) else {
            Issue.record("a paired upload is refused before its body")
            return
        }
        #expect(paired, "read, and its connection kept")
    }
}

extension HTTPResponse {
    /// The streamed body, if it is one.
    var stream: (any HTTPStream)? {
        if case .stream(let stream) = body { return stream }
        return nil
    }
}

/// Seconds that move only when told.
final class TestClock: Sendable {
    private let seconds = Mutex(1_000_000.0)
    var now: Double { seconds.withLock { $0 } }
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

/// `text` as a JSON string.
func JSONString(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
        .dropFirst().dropLast().description
}

/// A page's change reaches every page's event stream at once, not at the watch's next tick.
@Suite(.timeLimit(.minutes(5))) struct CompanionEventsTests {
    /// A daemon that is guiding, and a hub whose watcher never runs: whatever reaches a stream
    /// came from the router.
    static func guidingWithQuietHub() throws -> (CompanionRouterTests.Setup, FakeDaemonLink, EventHub) {
        let status = #"{"class":"STATUS","state":"guiding","destination":{"lat":48.1,"lon":2.1,"name":null,"radius":15}}"#
        let link = FakeDaemonLink(replies: ["status": [status]])
        let hub = EventHub(logger: Logger(label: "test", handler: StandardErrorLogHandler())) { () throws(ConnectionError) in
            throw .closed(path: "unused")
        }
        return (try CompanionRouterTests.Setup(link: link, events: hub), link, hub)
    }

    @Test func aChangeThroughThePageIsSentToEveryStreamAtOnce() throws {
        let (setup, link, hub) = try Self.guidingWithQuietHub()
        let stream = try #require(setup.router.respond(to: HTTPRequest(
            method: "GET", path: "/api/events", headers: ["host": CompanionRouterTests.host, "authorization": "Bearer \(setup.token)"])).stream)
        #expect(setup.request("POST", "/api/request", body: #"{"cmd":"go","lat":48.1,"lon":2.1}"#).status == 200)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Without the router's event, the third read would be a keep-alive, 15 s on.
        for _ in 0..<3 where !text.contains("\n\nevent: status") {
            let count = try #require(buffer.withUnsafeMutableBytes { stream.read(into: $0) })
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        #expect(text.hasPrefix("retry: 2000\n\nevent: status\ndata: "), "\(text)")
        // A question changes nothing: no second event.
        #expect(setup.request("POST", "/api/request", body: #"{"cmd":"recent"}"#).status == 200)
        #expect(link.sent.filter { $0 == .status }.count == 1)
        stream.finish()
        hub.close()
    }

    /// A stream whose session is revoked ends within ``EventHub/validitySeconds`` and sends
    /// nothing more, though the daemon's state keeps coming (issue 38: 192 events in 38 s).
    @Test func aRevokedSessionsStreamEndsAtOnce() throws {
        let (setup, _, hub) = try Self.guidingWithQuietHub()
        let phone = try setup.book.makeSession(kind: "phone", name: nil, now: 1_000_000, days: 30)
        let stream = try #require(setup.router.respond(to: HTTPRequest(
            method: "GET", path: "/api/events", headers: ["host": CompanionRouterTests.host, "authorization": "Bearer \(phone.token)"])).stream)
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(buffer.withUnsafeMutableBytes { stream.read(into: $0) } == 13, "retry")
        #expect(try setup.book.revoke(id: phone.id))
        // A change made meanwhile (by the script's session) is not sent to the revoked page.
        #expect(setup.request("POST", "/api/request", body: #"{"cmd":"go","lat":48.1,"lon":2.1}"#).status == 200)
        let started = ContinuousClock.now
        #expect(buffer.withUnsafeMutableBytes { stream.read(into: $0) } == nil, "the end, not the state")
        #expect(ContinuousClock.now - started < .seconds(2))
        stream.finish()
        hub.close()
    }

    @Test func streamsAreBounded() throws {
        let hub = EventHub(logger: Logger(label: "test", handler: StandardErrorLogHandler())) { () throws(ConnectionError) in
            throw .closed(path: "unused")
        }
        let streams = (0..<EventHub.maximumStreams).compactMap { _ in hub.subscribe() }
        #expect(streams.count == EventHub.maximumStreams)
        #expect(hub.subscribe() == nil, "one past the bound")
        streams[0].finish()
        #expect(hub.subscribe() != nil, "a closed page's place is free again")
        hub.close()
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(buffer.withUnsafeMutableBytes { streams[1].read(into: $0) } == 13, "what was pending (retry)")
        #expect(buffer.withUnsafeMutableBytes { streams[1].read(into: $0) } == nil, "then the end, once closed")
    }
}
