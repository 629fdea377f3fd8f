import ClientSupport
import ControlProtocol
import GPX
import Geodesy
import LocationIntake
import Synchronization
import TextFormats

/// Every request of the companion, answered: the checks first (``RequestGuard``, a session),
/// then the page's files, pairing, and the API, which relays to the daemon through the one
/// command table of the control protocol (`POST /api/request` takes a request line as the
/// socket does) and adds only what a phone cannot do alone: read a pasted link
/// (`LocationParser`, as `waypointctl` does), upload a GPX file, download the trail.
///
/// Runs on the connections' threads; its state (the throttle) is behind a lock.
public final class CompanionRouter: Sendable {
    /// The largest JSON body of a request, bytes: a route of 1000 named waypoints is a GPX
    /// upload, not a JSON request, so a request line's own bound is plenty.
    public static let maximumJSONBodyBytes = LineFramer.defaultMaximumLineLength
    /// The session cookie's name.
    public static let cookieName = "waypoint_session"

    /// What the router needs from outside: the daemon, the sessions, the files, the clocks.
    public struct Parts: Sendable {
        public var daemon: any DaemonLink
        public var sessions: SessionBook
        public var events: EventHub?
        public var files: StaticFiles
        public var tiles: TileSource?
        public var guardian: RequestGuard
        /// How long a paired phone stays paired, days.
        public var sessionDays: Int
        /// Whether the page is served over TLS (the cookie is then `Secure`).
        public var tls: Bool
        /// POSIX seconds now (sessions and pairing links are dated on disk).
        public var wallSeconds: @Sendable () -> Double
        /// Monotonic seconds now (the throttle).
        public var monotonicSeconds: @Sendable () -> Double

        public init(
            daemon: any DaemonLink, sessions: SessionBook, events: EventHub?, files: StaticFiles, tiles: TileSource?,
            guardian: RequestGuard, sessionDays: Int, tls: Bool, wallSeconds: @escaping @Sendable () -> Double,
            monotonicSeconds: @escaping @Sendable () -> Double
        ) {
            self.daemon = daemon
            self.sessions = sessions
            self.events = events
            self.files = files
            self.tiles = tiles
            self.guardian = guardian
            self.sessionDays = sessionDays
            self.tls = tls
            self.wallSeconds = wallSeconds
            self.monotonicSeconds = monotonicSeconds
        }
    }

    private let parts: Parts
    private let throttle = Mutex(PairingThrottle())

    /// A router over `parts`.
    public init(_ parts: Parts) { self.parts = parts }

    /// Answers `request`: ``admit(_:)``, then ``answer(_:)`` if it was admitted. (The server
    /// calls the two itself, the first once the headers are in.)
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if case .refused(let refusal) = admit(request) { return refusal }
        return answer(request)
    }

    /// What to do with a request whose headers are all that is in: refuse it there (a `Host`
    /// not ours, another site's `Origin`, no session for the API, a body or a method other than
    /// GET without a session), or read it and ``answer(_:)`` it, keeping the connection open only
    /// for a session.
    public func admit(_ request: HTTPRequest) -> HTTPServer.Admission {
        if let refusal = parts.guardian.refusal(of: request) { return .refused(withCommonHeaders(refusal, request)) }
        let session = authorized(request) != nil
        if session { return .admitted(session: true) }
        if Self.needsSession(request.path) { return .refused(withCommonHeaders(Self.unauthorized, request)) }
        // Without a session nothing is read past the headers: the page's files and the pairing
        // link are read with GET, and a body would only cost the Pi memory.
        guard request.method == "GET" || request.method == "HEAD" else {
            return .refused(withCommonHeaders(.error(405, "only GET reads the page's files"), request))
        }
        if Self.announcesBody(request) {
            return .refused(withCommonHeaders(.error(413, "a request without a session carries no body"), request))
        }
        return .admitted(session: false)
    }

    /// Whether the headers say a body follows.
    static func announcesBody(_ request: HTTPRequest) -> Bool {
        request.header("transfer-encoding") != nil || (request.header("content-length").flatMap(Int.init) ?? 0) > 0
    }

    /// Answers a request ``admit(_:)`` let through, with the headers every answer carries.
    public func answer(_ request: HTTPRequest) -> HTTPResponse { withCommonHeaders(route(request), request) }

    private func withCommonHeaders(_ answer: HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        var response = answer
        response.headers += [
            ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
        ]
        if request.path.hasPrefix("/api/") || request.path == "/pair" { response.headers.append(("Cache-Control", "no-store")) }
        return response
    }

    static func needsSession(_ path: String) -> Bool { path.hasPrefix("/api/") || path.hasPrefix("/tiles/") }

    /// What the page says when the daemon does not answer: the same words as its event stream's.
    static let daemonDown = "The navigation service on the Pi is not answering."

    static let unauthorized = HTTPResponse.error(401, "this phone is not paired: on the Pi, run waypoint-web pair and open the link it prints")

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/pair" { return pair(request) }
        if Self.needsSession(request.path) { return api(request) }
        guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "only GET reads the page's files") }
        return parts.files.response(for: request.path) ?? .error(404, "no such page: \(PlaceName.printable(String(request.path.prefix(100))))")
    }

    // MARK: - Sessions

    /// The token of the request's session, or nil when it has none that is valid now.
    private func authorized(_ request: HTTPRequest) -> String? {
        let token: String?
        if let authorization = request.header("authorization"), authorization.hasPrefix("Bearer ") {
            token = String(authorization.dropFirst("Bearer ".count))
        } else {
            token = request.cookies[Self.cookieName]
        }
        guard let token, parts.sessions.session(token: token, now: parts.wallSeconds()) != nil else { return nil }
        return token
    }

    /// `GET /pair?token=…`: the link `waypoint-web pair` printed. A right one sets the session
    /// cookie and lands on the page; wrong ones count toward the throttle.
    private func pair(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" else { return .error(405, "a pairing link is opened with GET") }
        let now = parts.monotonicSeconds()
        let address = request.clientAddress
        if let wait = throttle.withLock({ $0.allows(address, at: now) ? nil : $0.secondsLeft(address, at: now) }) {
            var response = Self.page(429, "Too many wrong pairing links", "Wait a minute, then open the link again.")
            response.headers.append(("Retry-After", String(wait)))
            return response
        }
        switch parts.sessions.redeem(pairing: request.query["token"] ?? "", now: parts.wallSeconds(), days: parts.sessionDays) {
        case .session(let session):
            let seconds = parts.sessionDays * 86_400
            let cookie =
                "\(Self.cookieName)=\(session.token); Path=/; Max-Age=\(seconds); HttpOnly; SameSite=Strict" + (parts.tls ? "; Secure" : "")
            return HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", cookie)])
        case .invalid:
            throttle.withLock { $0.recordFailure(address, at: now) }
            return Self.page(
                403, "This pairing link does not work",
                "It was used already, it is older than 10 minutes, or it was mistyped. On the Pi, run waypoint-web pair for a new one.")
        case .full:
            return Self.page(503, "Too many paired phones", "On the Pi, list them with waypoint-web sessions and end one with waypoint-web revoke.")
        }
    }

    /// A small page of its own for pairing's answers: the phone opened a link, not the app.
    static func page(_ status: Int, _ title: String, _ text: String) -> HTTPResponse {
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(title)</title></head><body><main><h1>\(title)</h1><p>\(text)</p></main></body></html>
            """
        return HTTPResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", StaticFiles.policy)],
            body: .bytes(Array(html.utf8)))
    }

    // MARK: - The API

    private func api(_ request: HTTPRequest) -> HTTPResponse {
        if request.bodyTooLarge { return .error(413, "the request's body is larger than the server takes") }
        switch (request.method, request.path) {
        case ("GET", "/api/status"): return relay(.status, change: nil)
        case ("GET", "/api/events"):
            // The stream ends within half a second of its session's revocation or expiry.
            let sessions = parts.sessions
            let token = authorized(request) ?? ""
            let wallSeconds = parts.wallSeconds
            let stillValid: @Sendable () -> Bool = { sessions.session(token: token, now: wallSeconds()) != nil }
            guard let events = parts.events, let stream = events.subscribe(while: stillValid) else {
                return .error(503, "\(EventHub.maximumStreams) pages are following the daemon already; close one")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
        case ("POST", "/api/request"): return relayed(request)
        case ("POST", "/api/place"): return place(request)
        case ("POST", "/api/route"): return uploadRoute(request)
        case ("GET", "/api/trail.gpx"): return trail()
        case ("GET", "/api/map"):
            guard let tiles = parts.tiles else { return .json(200, .object(["tiles": .string("osm")])) }
            return .json(200, .object([
                "tiles": .string("local"), "minzoom": .number(Double(tiles.zoomLevels.lowerBound)),
                "maxzoom": .number(Double(tiles.zoomLevels.upperBound)),
            ]))
        case ("GET", let path) where path.hasPrefix("/tiles/"):
            return parts.tiles?.response(for: path) ?? .error(404, "no map tiles are configured (tiles in waypoint-web.conf)")
        default:
            return .error(404, "no such request: \(request.method) \(PlaceName.printable(String(request.path.prefix(100))))")
        }
    }

    /// The daemon's answer to `request`: 200 with its reply, 422 with its `ERROR`, 502 when it
    /// does not answer. A request that changes something is made through ``changing(_:_:)``.
    private func relay(_ request: ControlRequest, change: String?) -> HTTPResponse {
        do throws(Refused) {
            let answer = request.isQuestion ? try reply(request) : try changing(change) { () throws(Refused) in try reply(request) }
            return .json(200, Self.value(answer))
        } catch {
            return error.response
        }
    }

    /// The id a page gave the change it asks for (`X-Change-Id`): printable ASCII, at most 64
    /// bytes; nil for none or another.
    static func changeID(of request: HTTPRequest) -> String? {
        guard let id = request.header("x-change-id"), (1...64).contains(id.utf8.count),
            id.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return id
    }

    /// Makes a change (`body`: the request or requests that change the daemon's state), then
    /// sends the state after it to every page at once, marked with the id of the page's
    /// request (`"change"`) so that the page that asked knows the change for its own; the hub
    /// holds back the watch's states meanwhile, so no page sees the change unmarked first.
    /// - Returns: what `body` returned.
    private func changing<Result>(_ change: String?, _ body: () throws(Refused) -> Result) throws(Refused) -> Result {
        guard let events = parts.events else { return try body() }
        return try events.publishingChange { () throws(Refused) -> (Result, JSONValue?) in
            let result = try body()
            guard let status = try? reply(.status), case .status = status, case .object(var members) = Self.value(status) else {
                return (result, nil)
            }
            if let change { members["change"] = .string(change) }
            return (result, .object(members))
        }
    }

    /// A reply as a JSON value, to answer with or to build an answer of.
    static func value(_ reply: ControlReply) -> JSONValue {
        // The replies' types always encode (a non-finite number is written as null).
        (try? JSONValueEncoder().encode(reply)) ?? .object(["class": .string("ERROR"), "code": .string("internal")])
    }

    /// `POST /api/request`: a control request line, checked here as the daemon checks it, so
    /// only well-formed requests reach the socket.
    private func relayed(_ request: HTTPRequest) -> HTTPResponse {
        guard request.body.count <= Self.maximumJSONBodyBytes else {
            return .error(413, "a request is at most \(Self.maximumJSONBodyBytes) bytes")
        }
        let parsed: ControlRequest
        do throws(ControlError) {
            parsed = try ControlRequest(line: request.body)
        } catch {
            return .json(400, Self.value(.error(error)))
        }
        if case .watch = parsed { return .error(400, "watch is not relayed; follow GET /api/events") }
        return relay(parsed, change: Self.changeID(of: request))
    }

    /// A refusal already worded as the answer to the page.
    struct Refused: Error {
        let response: HTTPResponse
    }

    /// The daemon's reply to `request`; its `ERROR` (422) or silence (502) thrown, worded for
    /// the page.
    private func reply(_ request: ControlRequest) throws(Refused) -> ControlReply {
        let reply: ControlReply
        do throws(DaemonUnreachable) {
            reply = try parts.daemon.exchange(request)
        } catch {
            // A phone's words first; the socket's own words (a path, a question about a
            // process) are for the log and whoever reads the JSON.
            throw Refused(response: .json(502, .object([
                "error": .string(Self.daemonDown), "detail": .string(error.description),
            ])))
        }
        if case .error = reply { throw Refused(response: .json(422, Self.value(reply))) }
        return reply
    }

    /// `POST /api/place {"text": …}`: the one box. A place (any form `waypointctl locate`
    /// reads) becomes the destination; words become a search near the fix. Coordinates that
    /// look typed longitude first (``LikelySwap``, as `waypointctl go` asks) are answered 409
    /// with both readings, unless `"force": true`.
    private func place(_ request: HTTPRequest) -> HTTPResponse {
        guard request.body.count <= Self.maximumJSONBodyBytes, case .object(let fields)? = try? JSONParser.parse(request.body),
            let text = fields["text"]?.string
        else { return .error(400, "the body is {\"text\": \"what was typed or pasted\"}") }
        let forced = fields["force"] == .bool(true)
        var location: Location
        do throws(LocationError) {
            location = try LocationParser.parse(text)
        } catch {
            switch error {
            case .needsSearch(let words, _): return search(words)
            case .needsReference:
                guard case .status(let status)? = try? reply(.status), let latitude = status.fix?.latitude,
                    let longitude = status.fix?.longitude
                else { return .error(422, "a short plus code is completed near the wearer, and there is no GPS fix yet: give the full code") }
                do throws(LocationError) {
                    location = try LocationParser.parse(
                        text, near: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude))
                } catch {
                    return .error(422, error.description)
                }
            default:
                return .error(422, PlaceName.printable(error.description))
            }
        }
        let latitude = location.coordinate.latitudeDegrees
        let longitude = location.coordinate.longitudeDegrees
        if !forced, [.coordinates, .geoURI].contains(location.source), case .status(let now)? = try? reply(.status),
            let fixLatitude = now.fix?.latitude, let fixLongitude = now.fix?.longitude,
            let swap = LikelySwap(
                destination: location.coordinate, fix: Coordinate(uncheckedLatitudeDegrees: fixLatitude, longitudeDegrees: fixLongitude))
        {
            let point = { (c: Coordinate) -> JSONValue in
                .object([
                    "lat": .number(c.latitudeDegrees), "lon": .number(c.longitudeDegrees),
                    "dms": .string(c.formattedDegreesMinutesSeconds()),
                ])
            }
            return .json(409, .object([
                "error": .string("\(swap.finding). Did you mean it latitude first?"), "typed": point(swap.typed),
                "meant": point(swap.meant), "typed_m": .number(swap.typedMeters), "meant_m": .number(swap.meantMeters),
            ]))
        }
        let status: ControlReply?
        do throws(Refused) {
            status = try changing(Self.changeID(of: request)) { () throws(Refused) -> ControlReply? in
                _ = try reply(.go(latitude: latitude, longitude: longitude, name: location.name))
                return try? reply(.status)
            }
        } catch {
            return error.response
        }
        // Written as the page's readout writes a position (degrees, minutes, seconds).
        var said = "Guiding to " + (location.name ?? location.coordinate.formattedDegreesMinutesSeconds())
        if case .status(let status)? = status, let distance = status.distanceMeters, let bearing = status.bearingDegrees {
            said += ", \(Presentation.distance(meters: distance))"
            if let point = CompassPoint(bearingDegrees: bearing) { said += " to the \(point.spokenName)" }
        }
        return .json(200, .object([
            "result": .string("set"), "lat": .number(latitude), "lon": .number(longitude), "name": location.name.map(JSONValue.string) ?? .null,
            "source": .string(location.source.rawValue), "said": .string(said),
        ]))
    }

    private func search(_ words: String) -> HTTPResponse {
        let query = String(words.prefix(ControlRequest.maximumQueryCharacters))
        do throws(Refused) {
            let found = try reply(.search(query, latitude: nil, longitude: nil, limit: ControlRequest.defaultSearchResults))
            guard case .search(let report) = found else { return .error(502, "the daemon did not answer with search results") }
            let count = report.results.count
            let said = count == 0 ? "Nothing found for \(query)" : "\(count) place\(count == 1 ? "" : "s") found for \(query)"
            return .json(200, .object(["result": .string("search"), "said": .string(said), "search": Self.value(found)]))
        } catch {
            return error.response
        }
    }

    /// `POST /api/route`: a GPX file's bytes, read as `waypointctl route load` reads one.
    private func uploadRoute(_ request: HTTPRequest) -> HTTPResponse {
        let document: GPXDocument
        do throws(GPXError) {
            document = try GPXReader.read(request.body)
        } catch {
            return .error(422, "the file is not a GPX route: \(error)")
        }
        let route: RouteImport.Route
        do throws(RouteImport.Failure) {
            route = try RouteImport.route(from: document)
        } catch {
            return .error(422, error.description)
        }
        let load = ControlRequest.route(.load(name: route.name, waypoints: route.waypoints))
        guard load.line.count <= LineFramer.defaultMaximumLineLength else {
            return .error(422, "the route's \(route.waypoints.count) waypoints are too long a request; use fewer waypoints or shorter names")
        }
        do throws(Refused) {
            let loaded = try changing(Self.changeID(of: request)) { () throws(Refused) in try reply(load) }
            return .json(200, .object(["said": .string("Route loaded from the \(route.source)"), "reply": Self.value(loaded)]))
        } catch {
            return error.response
        }
    }

    /// `GET /api/trail.gpx`: the breadcrumb trail, page by page, as one GPX file.
    private func trail() -> HTTPResponse {
        var document = TrailDocument()
        var cursor: String?
        repeat {
            do throws(Refused) {
                guard case .track(let page) = try reply(.track(.export(since: nil, until: nil, cursor: cursor))) else {
                    return .error(502, "the daemon did not answer with the trail")
                }
                guard document.add(page) else { return .error(413, "the trail has more than \(TrailDocument.maximumPoints) points") }
                cursor = page.next
            } catch {
                return error.response
            }
        } while cursor != nil
        let text = GPXWriter.text(document.document, creator: "waypoint-web \(Release.version)")
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "application/gpx+xml"), ("Content-Disposition", "attachment; filename=\"trail.gpx\"")],
            body: .bytes(Array(text.utf8)))
    }
}
