import TextFormats

extension ControlRequest {
    /// The request as one line of compact JSON with sorted keys, newline included: what a
    /// client sends. ``init(line:)`` reads it back as the same request.
    ///
    /// - Precondition: Every number in the request is finite, as in every request that
    ///   ``init(line:)`` makes: JSON has no NaN or infinity.
    public var line: [UInt8] {
        var fields = RequestFields(cmd: commandName)
        switch self {
        case .go(let latitude, let longitude, let name, let walk):
            fields.lat = latitude
            fields.lon = longitude
            fields.name = name
            fields.walk = walk
        case .goRecent(let index): fields.recent = index
        case .goPlace(let name): fields.place = name
        case .route(let action):
            fields.action = action.name
            switch action {
            case .load(let name, let waypoints):
                fields.name = name
                fields.waypoints = waypoints.map(PointFields.init)
            case .plan(let from, let to, let profile, let follow):
                fields.from = from.map(PointFields.init)
                fields.lat = to.latitude
                fields.lon = to.longitude
                fields.name = to.name
                fields.profile = profile
                fields.follow = follow ? true : nil
            default: break
            }
        case .track(let action):
            fields.action = action.name
            if case .export(let since, let until, let cursor) = action {
                fields.since = since
                fields.until = until
                fields.cursor = cursor
            }
        case .back(let minutes): fields.minutes = minutes
        case .place(let action):
            fields.action = action.name
            switch action {
            case .list: break
            case .add(let place, let replacing):
                fields.lat = place.latitude
                fields.lon = place.longitude
                fields.name = place.name
                fields.radius = place.radiusMeters
                fields.replace = replacing ? true : nil
            case .mark(let name, let seconds, let radius, let replacing):
                fields.name = name
                fields.seconds = seconds
                fields.radius = radius
                fields.replace = replacing ? true : nil
            case .rename(let name, let newName):
                fields.name = name
                fields.to = newName
            case .remove(let name): fields.name = name
            }
        case .clear, .status, .recent: break
        case .removeRecent(let index):
            fields.action = "remove"
            fields.index = index
        case .removeRecentPlace(let latitude, let longitude):
            fields.action = "remove"
            fields.lat = latitude
            fields.lon = longitude
        case .watch(let enabled, let hertz):
            fields.enable = enabled
            fields.hz = hertz
        case .mute(let on): fields.on = on
        case .calibrate(let action): fields.action = action.rawValue
        case .buzz(let pattern): fields.pattern = pattern.rawValue
        case .search(let query, let latitude, let longitude, let limit):
            fields.query = query
            fields.lat = latitude
            fields.lon = longitude
            fields.limit = limit
        case .whereAmI(let latitude, let longitude):
            fields.lat = latitude
            fields.lon = longitude
        case .buttonTest(let seconds):
            fields.action = "test"
            fields.seconds = seconds
        }
        do {
            return JSONWriter.bytes(try JSONValueEncoder().encode(fields), layout: .compact) + [UInt8(ascii: "\n")]
        } catch {
            // Strings, booleans and small whole numbers always encode; only a non-finite number fails.
            preconditionFailure("a control request must hold finite numbers to be sent: \(self)")
        }
    }

    /// The request's `"cmd"`: what it is called on the wire and in messages.
    public var commandName: String {
        switch self {
        case .go, .goRecent, .goPlace: "go"
        case .route: "route"
        case .place: "place"
        case .track: "track"
        case .back: "back"
        case .clear: "clear"
        case .status: "status"
        case .watch: "watch"
        case .recent, .removeRecent, .removeRecentPlace: "recent"
        case .mute: "mute"
        case .calibrate: "calibrate"
        case .buzz: "buzz"
        case .search: "search"
        case .whereAmI: "where"
        case .buttonTest: "button"
        }
    }
}

/// Every field a request may have, named as on the wire; the encoder leaves out the nil ones.
private struct RequestFields: Encodable {
    var cmd: String
    var lat: Double?
    var lon: Double?
    var name: String?
    var recent: Int?
    var index: Int?
    var enable: Bool?
    var hz: Double?
    var on: Bool?
    var action: String?
    var pattern: String?
    var place: String?
    var to: String?
    var seconds: Double?
    var radius: Double?
    var replace: Bool?
    var waypoints: [PointFields]?
    var since: Double?
    var until: Double?
    var cursor: String?
    var minutes: Double?
    var query: String?
    var limit: Int?
    var walk: Bool?
    var from: PointFields?
    var profile: String?
    var follow: Bool?
}

/// A route's waypoint as sent: `{"lat":…,"lon":…}` with `name` and `radius` only when known,
/// so that a long route stays short.
private struct PointFields: Encodable {
    var lat: Double
    var lon: Double
    var name: String?
    var radius: Double?

    init(_ point: DestinationReport) {
        lat = point.latitude
        lon = point.longitude
        name = point.name
        radius = point.radiusMeters
    }
}
