/// A request line from a client, checked. Every request is a JSON object with a `"cmd"`
/// string; unknown fields are ignored, so newer clients can talk to older daemons.
///
/// | line | case |
/// |---|---|
/// | `{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Eiffel"}` | ``go(latitude:longitude:name:)`` |
/// | `{"cmd":"go","recent":2}` | ``goRecent(_:)`` |
/// | `{"cmd":"clear"}` · `{"cmd":"status"}` · `{"cmd":"recent"}` | ``clear``, ``status``, ``recent`` |
/// | `{"cmd":"watch","enable":true,"hz":2}` | ``watch(enabled:hertz:)`` |
/// | `{"cmd":"mute","on":true}` | ``mute(_:)`` |
/// | `{"cmd":"calibrate","action":"start"}` | ``calibrate(_:)`` |
/// | `{"cmd":"buzz","pattern":"test"}` | ``buzz(_:)`` |
public enum ControlRequest: Sendable, Hashable {
    /// How many recent destinations the daemon keeps, so the largest `recent` index.
    public static let recentCount = 5
    /// The fastest `watch` rate, updates per second.
    public static let maximumWatchHertz = 10.0
    /// The slowest `watch` rate, updates per second.
    public static let minimumWatchHertz = 0.1
    /// The `watch` rate when a request gives none, updates per second.
    public static let defaultWatchHertz = 2.0

    /// Guide to a place. Latitude and longitude are finite and in range; an empty name is nil.
    case go(latitude: Double, longitude: Double, name: String?)
    /// Guide to one of the recent destinations: 1 is the most recent.
    case goRecent(Int)
    /// Stop guiding.
    case clear
    /// Report the current state.
    case status
    /// Start (or, with `enabled` false, stop) a `STATUS` line every 1/`hertz` seconds.
    case watch(enabled: Bool, hertz: Double)
    /// List the recent destinations.
    case recent
    /// Silence (true) or restore (false) guidance vibration; patterns still play.
    case mute(Bool)
    /// Run a step of the magnetometer calibration.
    case calibrate(CalibrationAction)
    /// Play a pattern now.
    case buzz(BuzzPattern)

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
        case "recent": self = .recent
        case "watch":
            let hertz = try fields.number("hz", in: Self.minimumWatchHertz...Self.maximumWatchHertz) ?? Self.defaultWatchHertz
            self = .watch(enabled: try fields.boolean("enable") ?? true, hertz: hertz)
        case "mute":
            guard let on = try fields.boolean("on") else { throw ControlError(.badArgument, "on is required (true or false)") }
            self = .mute(on)
        case "calibrate": self = .calibrate(try fields.choice("action", default: .status))
        case "buzz": self = .buzz(try fields.choice("pattern", default: .test))
        default: throw ControlError(.unknownCommand, "unknown command \"\(command.prefix(40))\"")
        }
    }

    private static func parseGo(_ fields: Fields) throws(ControlError) -> ControlRequest {
        if fields.object["recent"] != nil {
            if fields.object["lat"] != nil || fields.object["lon"] != nil {
                throw ControlError(.badArgument, "give either recent or lat and lon, not both")
            }
            guard let index = try fields.number("recent", in: 1...Double(recentCount)), index == index.rounded() else {
                throw ControlError(.badArgument, "recent must be a whole number from 1 to \(recentCount)")
            }
            return .goRecent(Int(index))
        }
        guard let latitude = try fields.number("lat", in: -90...90) else { throw ControlError(.badArgument, "lat is required") }
        guard let longitude = try fields.number("lon", in: -180...180) else { throw ControlError(.badArgument, "lon is required") }
        let name: String?
        switch fields.object["name"] {
        case nil, .null?: name = nil
        case .string(let text)?:
            do throws(PlaceNameError) {
                name = try PlaceName.validated(text)
            } catch {
                throw ControlError(.badArgument, "\(error)")
            }
        default: throw ControlError(.badArgument, "name must be a string or null")
        }
        return .go(latitude: latitude, longitude: longitude, name: name)
    }

    /// Typed access to a request's optional fields; a present field of the wrong type or out of
    /// range is an error naming it, an absent (or null) one is nil.
    private struct Fields {
        let object: [String: JSONValue]

        func number(_ key: String, in range: ClosedRange<Double>) throws(ControlError) -> Double? {
            guard let raw = object[key], raw != .null else { return nil }
            guard let value = raw.number else { throw ControlError(.badArgument, "\(key) must be a number") }
            guard value.isFinite else { throw ControlError(.badArgument, "\(key) must be a finite number") }
            guard range.contains(value) else {
                throw ControlError(
                    .badArgument, "\(key) \(value) is outside [\(Self.text(range.lowerBound)), \(Self.text(range.upperBound))]")
            }
            return value
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

        /// `-90.0` as `-90`, so messages read like the protocol's documentation.
        private static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }
}
