import Foundation

/// A request line from a client, checked: `{"cmd":"go","lat":…,"lon":…,"name":…}`,
/// `{"cmd":"clear"}`, `{"cmd":"status"}` or `{"cmd":"recent"}`. Unknown fields are ignored.
public enum ControlRequest: Sendable, Hashable {
    /// The longest destination name accepted, in characters.
    public static let maximumNameLength = 100

    /// Guide to a place. Latitude and longitude are finite and in range; an empty name is nil.
    case go(latitude: Double, longitude: Double, name: String?)
    /// Stop guiding.
    case clear
    /// Report the current state.
    case status
    /// List the recent destinations.
    case recent

    /// Parses and checks one line (without its newline).
    ///
    /// - Parameter line: The line's bytes, UTF-8 JSON.
    /// - Throws: A ``ControlError`` coded ``ControlErrorCode/badJSON`` (not a JSON object),
    ///   ``ControlErrorCode/unknownCommand`` (no `cmd`, or an unknown one) or
    ///   ``ControlErrorCode/badArgument`` (a missing, mistyped or out-of-range argument).
    public init(line: some Collection<UInt8>) throws(ControlError) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(line))
        } catch {
            throw ControlError(.badJSON, "not valid JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw ControlError(.badJSON, "a request must be a JSON object")
        }
        guard let command = object["cmd"] as? String else {
            throw ControlError(.unknownCommand, "a request needs a \"cmd\" string")
        }
        switch command {
        case "go": self = try Self.parseGo(object)
        case "clear": self = .clear
        case "status": self = .status
        case "recent": self = .recent
        default: throw ControlError(.unknownCommand, "unknown command \"\(command.prefix(40))\"")
        }
    }

    private static func parseGo(_ object: [String: Any]) throws(ControlError) -> ControlRequest {
        let latitude = try number(object, "lat", limit: 90)
        let longitude = try number(object, "lon", limit: 180)
        var name: String?
        switch object["name"] {
        case nil, is NSNull: name = nil
        case let text as String: name = text.isEmpty ? nil : text
        default: throw ControlError(.badArgument, "name must be a string or null")
        }
        if let name, name.count > maximumNameLength {
            throw ControlError(.badArgument, "name is \(name.count) characters; at most \(maximumNameLength) are allowed")
        }
        return .go(latitude: latitude, longitude: longitude, name: name)
    }

    /// A required finite number in [−limit, limit].
    private static func number(_ object: [String: Any], _ key: String, limit: Double) throws(ControlError) -> Double {
        guard let raw = object[key] else { throw ControlError(.badArgument, "\(key) is required") }
        guard !isBoolean(raw), let value = (raw as? NSNumber)?.doubleValue ?? (raw as? Double) else {
            throw ControlError(.badArgument, "\(key) must be a number")
        }
        guard value.isFinite else { throw ControlError(.badArgument, "\(key) must be a finite number") }
        guard abs(value) <= limit else {
            throw ControlError(.badArgument, "\(key) \(value) is outside [-\(Int(limit)), \(Int(limit))]")
        }
        return value
    }

    /// Whether JSONSerialization made `value` from `true` or `false`. `value is Bool` cannot
    /// tell: on Linux an `NSNumber` holding 0 or 1 casts to `Bool` too. A boolean is either a
    /// Swift `Bool` or an `NSNumber` whose C type is `char` (`c`).
    private static func isBoolean(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        guard let number = value as? NSNumber else { return false }
        return number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }
}
