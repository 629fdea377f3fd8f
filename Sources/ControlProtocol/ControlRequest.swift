import TextFormats
/// A request line from a client, checked. Every request is a JSON object with a `"cmd"`
/// string; unknown fields are ignored, so newer clients can talk to older daemons.
///
/// | line | case |
/// |---|---|
/// | `{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Eiffel"}` | ``go(latitude:longitude:name:)`` |
/// | `{"cmd":"go","recent":2}` | ``goRecent(_:)`` |
/// | `{"cmd":"go","place":"Bakery"}` | ``goPlace(_:)`` |
/// | `{"cmd":"route","action":"next"}` | ``route(_:)`` (see ``RouteAction``) |
/// | `{"cmd":"place","action":"mark","name":"Car"}` | ``place(_:)`` (see ``PlaceAction``) |
/// | `{"cmd":"track","action":"export"}` | ``track(_:)`` (see ``TrackAction``) |
/// | `{"cmd":"back","minutes":30}` | ``back(minutes:)`` |
/// | `{"cmd":"clear"}` · `{"cmd":"status"}` · `{"cmd":"recent"}` | ``clear``, ``status``, ``recent`` |
/// | `{"cmd":"recent","action":"remove","index":2}` | ``removeRecent(_:)`` |
/// | `{"cmd":"watch","enable":true,"hz":2}` | ``watch(enabled:hertz:)`` |
/// | `{"cmd":"mute","on":true}` | ``mute(_:)`` |
/// | `{"cmd":"calibrate","action":"start"}` | ``calibrate(_:)`` |
/// | `{"cmd":"buzz","pattern":"test"}` | ``buzz(_:)`` |
/// | `{"cmd":"search","query":"bakery","limit":10}` | ``search(_:latitude:longitude:limit:)`` |
/// | `{"cmd":"where","lat":43.73,"lon":7.42}` | ``whereAmI(latitude:longitude:)`` |
public enum ControlRequest: Sendable, Hashable {
    /// How many recent destinations the daemon keeps, so the largest `recent` index.
    public static let recentCount = 5
    /// The fastest `watch` rate, updates per second.
    public static let maximumWatchHertz = 10.0
    /// The slowest `watch` rate, updates per second.
    public static let minimumWatchHertz = 0.1
    /// The `watch` rate when a request gives none, updates per second.
    public static let defaultWatchHertz = 2.0
    /// The arrival radii a place or waypoint may have, metres: below 2 m no GPS receiver can
    /// tell arrival from noise; above 1 km it would not be guidance.
    public static let arrivalRadiusRangeMeters = 2.0...1000.0
    /// The longest search text, characters: a name and an address with room to spare.
    public static let maximumQueryCharacters = 200
    /// The most results a search may ask for.
    public static let maximumSearchResults = 50
    /// The results a search gets when it asks for no number.
    public static let defaultSearchResults = 10

    /// Whether the request only asks (nothing changes, nothing is saved): the daemon answers it
    /// without waiting for another request's saves, and the companion has no new state to send
    /// its pages after it.
    @inlinable
    public var isQuestion: Bool {
        switch self {
        case .status, .recent, .place(.list), .route(.show), .calibrate(.status), .track(.export), .watch, .search, .whereAmI: true
        default: false
        }
    }

    /// The most waypoints a route may have: a day's walk with one every 25 m, and (unnamed)
    /// well within one request line.
    public static let maximumRouteWaypoints = 1000

    /// Guide to a place. Latitude and longitude are finite and in range; an empty name is nil.
    case go(latitude: Double, longitude: Double, name: String?)
    /// Guide to one of the recent destinations: 1 is the most recent.
    case goRecent(Int)
    /// Guide to the place of this name (case-insensitive), else the recent destination of it.
    case goPlace(String)
    /// Load, show, move along or drop a route.
    case route(RouteAction)
    /// Keep, list, rename or remove named places.
    case place(PlaceAction)
    /// Export a page of the breadcrumb trail, or forget it.
    case track(TrackAction)
    /// Guide back along the trail of the last `minutes` (nil: since the daemon started), as a
    /// route.
    case back(minutes: Double?)

    /// The longest `back` may reach into the trail, minutes: a day.
    public static let maximumBackMinutes = 1440.0
    /// Stop guiding.
    case clear
    /// Report the current state.
    case status
    /// Start (or, with `enabled` false, stop) a `STATUS` line every 1/`hertz` seconds.
    case watch(enabled: Bool, hertz: Double)
    /// List the recent destinations.
    case recent
    /// Forget one of the recent destinations: 1 is the most recent.
    case removeRecent(Int)
    /// Silence (true) or restore (false) guidance vibration; patterns still play.
    case mute(Bool)
    /// Run a step of the magnetometer calibration.
    case calibrate(CalibrationAction)
    /// Play a pattern now.
    case buzz(BuzzPattern)
    /// Search the place index near the position given, else near the current fix.
    case search(String, latitude: Double?, longitude: Double?, limit: Int)
    /// The nearest address or street to the position given, else to the current fix.
    case whereAmI(latitude: Double?, longitude: Double?)

    /// Parses and checks one line (without its newline).
    ///
    /// - Parameter line: The line's bytes, UTF-8 JSON.
    /// - Throws: A ``ControlError`` coded ``ControlErrorCode/badJSON`` (not a JSON object),
    ///   ``ControlErrorCode/unknownCommand`` (no `cmd`, or an unknown one) or
    ///   ``ControlErrorCode/badArgument`` (a missing, mistyped or out-of-range argument).
    public init(line: some Collection<UInt8>) throws(ControlError) {
        let parsed: JSONValue
        do throws(JSONSyntaxError) {
            parsed = try JSONParser.parse(line)
        } catch {
            // The wire message is the documented one (README, `bad-json`); what and where would
            // help little in a line the client itself wrote.
            throw ControlError(.badJSON, "not valid JSON")
        }
        guard let object = parsed.object else {
            throw ControlError(.badJSON, "a request must be a JSON object")
        }
        guard let command = object["cmd"]?.string else {
            throw ControlError(.unknownCommand, "a request needs a \"cmd\" string")
        }
        let fields = Fields(object: object)
        switch command {
        case "go": self = try Self.parseGo(fields)
        case "clear": self = .clear
        case "status": self = .status
        case "recent":
            switch try fields.word("action", among: ["list", "remove"], default: "list") {
            case "remove":
                guard let index = try fields.number("index", in: 1...Double(Self.recentCount)), index == index.rounded() else {
                    throw ControlError(.badArgument, "index must be a whole number from 1 to \(Self.recentCount)")
                }
                self = .removeRecent(Int(index))
            default: self = .recent
            }
        case "watch":
            let hertz = try fields.number("hz", in: Self.minimumWatchHertz...Self.maximumWatchHertz) ?? Self.defaultWatchHertz
            self = .watch(enabled: try fields.boolean("enable") ?? true, hertz: hertz)
        case "mute":
            guard let on = try fields.boolean("on") else { throw ControlError(.badArgument, "on is required (true or false)") }
            self = .mute(on)
        case "calibrate": self = .calibrate(try fields.choice("action", default: .status))
        case "buzz": self = .buzz(try fields.choice("pattern", default: .test))
        case "route": self = .route(try Self.parseRoute(fields))
        case "place": self = .place(try Self.parsePlace(fields))
        case "track":
            switch try fields.word("action", among: TrackAction.names, default: "export") {
            case "clear": self = .track(.clear)
            default:
                let since = try fields.number("since", in: 0...1e11)
                let until = try fields.number("until", in: 0...1e11)
                let cursor: String?
                switch fields.object["cursor"] {
                case nil, .null?: cursor = nil
                case .string(let text)? where text.utf8.count <= 40: cursor = text
                default: throw ControlError(.badArgument, "cursor must be the previous page's next")
                }
                self = .track(.export(since: since, until: until, cursor: cursor))
            }
        case "back": self = .back(minutes: try fields.number("minutes", in: 1...Self.maximumBackMinutes))
        case "search":
            guard let query = fields.object["query"]?.string, !query.isEmpty,
                query.count <= Self.maximumQueryCharacters, !query.unicodeScalars.contains(where: PlaceName.isUnprintable)
            else {
                throw ControlError(
                    .badArgument, "query must be a string of 1 to \(Self.maximumQueryCharacters) printable characters")
            }
            let (latitude, longitude) = try Self.parsePosition(fields)
            let limit = try fields.number("limit", in: 1...Double(Self.maximumSearchResults)).map { Int($0) } ?? Self.defaultSearchResults
            self = .search(query, latitude: latitude, longitude: longitude, limit: limit)
        case "where":
            let (latitude, longitude) = try Self.parsePosition(fields)
            self = .whereAmI(latitude: latitude, longitude: longitude)
        default: throw ControlError(.unknownCommand, "unknown command \"\(command.prefix(40))\"")
        }
    }

    private static func parseGo(_ fields: Fields) throws(ControlError) -> ControlRequest {
        if fields.object["place"] != nil {
            if fields.object["lat"] != nil || fields.object["lon"] != nil || fields.object["recent"] != nil {
                throw ControlError(.badArgument, "give one of place, recent, or lat and lon")
            }
            return .goPlace(try fields.name("place"))
        }
        if fields.object["recent"] != nil {
            if fields.object["lat"] != nil || fields.object["lon"] != nil {
                throw ControlError(.badArgument, "give either recent or lat and lon, not both")
            }
            guard let index = try fields.number("recent", in: 1...Double(recentCount)), index == index.rounded() else {
                throw ControlError(.badArgument, "recent must be a whole number from 1 to \(recentCount)")
            }
            return .goRecent(Int(index))
        }
        let place = try parsePoint(fields)
        return .go(latitude: place.latitude, longitude: place.longitude, name: place.name)
    }

    /// `lat`, `lon` (required), `name` and `radius` (optional).
    private static func parsePoint(_ fields: Fields, prefix: String = "") throws(ControlError) -> DestinationReport {
        guard let latitude = try fields.number("lat", in: -90...90, prefix: prefix) else {
            throw ControlError(.badArgument, "\(prefix)lat is required")
        }
        guard let longitude = try fields.number("lon", in: -180...180, prefix: prefix) else {
            throw ControlError(.badArgument, "\(prefix)lon is required")
        }
        return DestinationReport(
            latitude: latitude, longitude: longitude, name: try fields.optionalName("name", prefix: prefix),
            radiusMeters: try fields.number("radius", in: arrivalRadiusRangeMeters, prefix: prefix))
    }

    private static func parseRoute(_ fields: Fields) throws(ControlError) -> RouteAction {
        let action = try fields.word("action", among: RouteAction.names, default: "show")
        switch action {
        case "load":
            guard let list = fields.object["waypoints"]?.array else {
                throw ControlError(.badArgument, "waypoints must be an array of {\"lat\":…,\"lon\":…} objects")
            }
            guard (1...maximumRouteWaypoints).contains(list.count) else {
                throw ControlError(
                    .badArgument, "a route needs 1 to \(maximumRouteWaypoints) waypoints; this one has \(list.count)")
            }
            var waypoints: [DestinationReport] = []
            waypoints.reserveCapacity(list.count)
            for (index, item) in list.enumerated() {
                guard let object = item.object else {
                    throw ControlError(.badArgument, "waypoints[\(index)] must be an object")
                }
                waypoints.append(try parsePoint(Fields(object: object), prefix: "waypoints[\(index)]."))
            }
            return .load(name: try fields.optionalName("name"), waypoints: waypoints)
        case "next": return .next
        case "previous": return .previous
        case "reverse": return .reverse
        case "clear": return .clear
        default: return .show
        }
    }

    private static func parsePlace(_ fields: Fields) throws(ControlError) -> PlaceAction {
        let action = try fields.word("action", among: PlaceAction.names, default: "list")
        switch action {
        case "add":
            let point = try parsePoint(fields)
            guard point.name != nil else { throw ControlError(.badArgument, "name is required") }
            return .add(point, replacing: try fields.boolean("replace") ?? false)
        case "mark":
            let seconds =
                try fields.number("seconds", in: 0...PlaceAction.maximumMarkSeconds) ?? PlaceAction.defaultMarkSeconds
            return .mark(
                name: try fields.name("name"), seconds: seconds,
                radiusMeters: try fields.number("radius", in: arrivalRadiusRangeMeters),
                replacing: try fields.boolean("replace") ?? false)
        case "rename": return .rename(try fields.name("name"), to: try fields.name("to"))
        case "remove": return .remove(try fields.name("name"))
        default: return .list
        }
    }

    /// An optional `lat` and `lon`: both or neither.
    private static func parsePosition(_ fields: Fields) throws(ControlError) -> (Double?, Double?) {
        let latitude = try fields.number("lat", in: -90...90)
        let longitude = try fields.number("lon", in: -180...180)
        guard (latitude == nil) == (longitude == nil) else { throw ControlError(.badArgument, "give lat and lon together") }
        return (latitude, longitude)
    }

    /// Typed access to a request's optional fields; a present field of the wrong type or out of
    /// range is an error naming it, an absent (or null) one is nil.
    private struct Fields {
        let object: [String: JSONValue]

        func number(_ key: String, in range: ClosedRange<Double>, prefix: String = "") throws(ControlError) -> Double? {
            guard let raw = object[key], raw != .null else { return nil }
            let field = prefix + key
            guard let value = raw.number else { throw ControlError(.badArgument, "\(field) must be a number") }
            guard value.isFinite else { throw ControlError(.badArgument, "\(field) must be a finite number") }
            guard range.contains(value) else {
                throw ControlError(
                    .badArgument,
                    "\(field) \(value) is outside [\(JSONWriter.number(range.lowerBound)), \(JSONWriter.number(range.upperBound))]")
            }
            return value
        }

        /// A name that keeps ``PlaceName``'s rules, or nil when absent or null.
        func optionalName(_ key: String, prefix: String = "") throws(ControlError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?:
                do throws(PlaceNameError) {
                    return try PlaceName.validated(text)
                } catch {
                    throw ControlError(.badArgument, prefix.isEmpty ? "\(error)" : "\(prefix)\(error)")
                }
            default: throw ControlError(.badArgument, "\(prefix)\(key) must be a string or null")
            }
        }

        /// A name that must be there.
        func name(_ key: String) throws(ControlError) -> String {
            guard let name = try optionalName(key) else { throw ControlError(.badArgument, "\(key) is required") }
            return name
        }

        /// One of `names`, or `fallback` when absent.
        func word(_ key: String, among names: [String], default fallback: String) throws(ControlError) -> String {
            guard let raw = object[key], raw != .null else { return fallback }
            guard let text = raw.string, names.contains(text) else {
                throw ControlError(.badArgument, "\(key) must be one of: \(names.joined(separator: ", "))")
            }
            return text
        }

        func boolean(_ key: String) throws(ControlError) -> Bool? {
            guard let raw = object[key], raw != .null else { return nil }
            guard let value = raw.bool else { throw ControlError(.badArgument, "\(key) must be true or false") }
            return value
        }

        func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, default fallback: Choice) throws(ControlError)
            -> Choice where Choice.RawValue == String
        {
            guard let raw = object[key], raw != .null else { return fallback }
            guard let text = raw.string, let value = Choice(rawValue: text) else {
                let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
                throw ControlError(.badArgument, "\(key) must be one of: \(names)")
            }
            return value
        }

    }
}

// MARK: - The line a client sends

extension ControlRequest {
    /// The request as one line of compact JSON with sorted keys, newline included: what a
    /// client sends. ``init(line:)`` reads it back as the same request.
    ///
    /// - Precondition: Every number in the request is finite, as in every request that
    ///   ``init(line:)`` makes: JSON has no NaN or infinity.
    public var line: [UInt8] {
        var fields = RequestFields(cmd: commandName)
        switch self {
        case .go(let latitude, let longitude, let name):
            fields.lat = latitude
            fields.lon = longitude
            fields.name = name
        case .goRecent(let index): fields.recent = index
        case .goPlace(let name): fields.place = name
        case .route(let action):
            fields.action = action.name
            if case .load(let name, let waypoints) = action {
                fields.name = name
                fields.waypoints = waypoints.map(PointFields.init)
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
        }
        do {
            return JSONWriter.bytes(try JSONValueEncoder().encode(fields), layout: .compact) + [UInt8(ascii: "\n")]
        } catch {
            // Strings, booleans and small whole numbers always encode; only a non-finite number fails.
            preconditionFailure("a control request must hold finite numbers to be sent: \(self)")
        }
    }

    /// Every `"cmd"` the protocol knows, in the order the README lists them: waypointctl has a
    /// command of each name (a test holds it to that).
    public static let commandNames = [
        "go", "clear", "status", "watch", "recent", "place", "route", "back", "track", "mute", "buzz", "calibrate", "search",
        "where",
    ]

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
        case .recent, .removeRecent: "recent"
        case .mute: "mute"
        case .calibrate: "calibrate"
        case .buzz: "buzz"
        case .search: "search"
        case .whereAmI: "where"
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
