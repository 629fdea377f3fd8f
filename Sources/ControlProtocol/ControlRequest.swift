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
/// | `{"cmd":"recent","action":"remove","lat":48.8584,"lon":2.2945}` | ``removeRecentPlace(latitude:longitude:)`` |
/// | `{"cmd":"watch","enable":true,"hz":2}` | ``watch(enabled:hertz:)`` |
/// | `{"cmd":"mute","on":true}` | ``mute(_:)`` |
/// | `{"cmd":"calibrate","action":"start"}` | ``calibrate(_:)`` |
/// | `{"cmd":"buzz","pattern":"test"}` | ``buzz(_:)`` |
/// | `{"cmd":"search","query":"bakery","limit":10}` | ``search(_:latitude:longitude:limit:)`` |
/// | `{"cmd":"where","lat":43.73,"lon":7.42}` | ``whereAmI(latitude:longitude:)`` |
/// | `{"cmd":"button","action":"test","seconds":60}` | ``buttonTest(seconds:)`` |
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
        case .status, .recent, .place(.list), .route(.show), .calibrate(.status), .track(.export), .watch, .search, .whereAmI, .buttonTest: true
        default: false
        }
    }

    /// The most waypoints a route may have: a day's walk with one every 25 m, and (unnamed)
    /// well within one request line.
    public static let maximumRouteWaypoints = 1000

    /// Guide to a place. Latitude and longitude are finite and in range; an empty name is nil.
    /// `walk`: true plans a walk over the streets and follows it, false guides straight there,
    /// nil (absent) does what the daemon's `walk` setting says.
    case go(latitude: Double, longitude: Double, name: String?, walk: Bool? = nil)
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
    /// Forget the recent destination at this place (within the same-place distance): a
    /// client that shows the list names what was tapped, not a number the list may have moved
    /// since.
    case removeRecentPlace(latitude: Double, longitude: Double)
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
    /// For `seconds` (0 ends it), the button's gestures are confirmed on the motor and shown
    /// in `STATUS`, but not acted on: for setting a button up.
    case buttonTest(seconds: Double)
    /// The longest `button test`, seconds.
    public static let maximumButtonTestSeconds = 600.0

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
        guard let read = Self.readers.first(where: { $0.name == command })?.read else {
            throw ControlError(.unknownCommand, "unknown command \"\(command.prefix(40))\"")
        }
        self = try read(RequestReader(object: object))
    }

    /// One row per `cmd`, in the order the README lists them: its name and how its fields are
    /// read (``ControlRequest+Reading.swift``, a function each). A new request adds its case
    /// above, its row here, and its name and fields in the two switches of
    /// ``ControlRequest+Line.swift``, which the compiler points to.
    static let readers: [(name: String, read: @Sendable (RequestReader) throws(ControlError) -> ControlRequest)] = [
        ("go", readGo), ("clear", { _ in .clear }), ("status", { _ in .status }), ("watch", readWatch),
        ("recent", readRecent), ("place", readPlace), ("route", readRoute), ("back", readBack), ("track", readTrack),
        ("mute", readMute), ("buzz", readBuzz), ("calibrate", readCalibrate), ("search", readSearch), ("where", readWhere),
        ("button", readButton),
    ]

    /// Every `"cmd"` the protocol knows, in the order the README lists them: waypointctl has a
    /// command of each name (a test holds it to that).
    public static var commandNames: [String] { readers.map(\.name) }
}
