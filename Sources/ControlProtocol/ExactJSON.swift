import Foundation

/// Parses JSON into `[String: Any]`, `[Any]`, `Double`, `Bool`, `String` and `NSNull`, like
/// `JSONSerialization`, but with every number read back to the exact `Double` that was written.
///
/// Why: on Linux `JSONSerialization` rounds about half of all 17-digit numbers to a
/// neighbouring `Double` (measured: 45 943 of 100 000 random values in [−180, 180]), which made
/// a replay differ from its live run by 1e-9 m. `JSONDecoder` reads them exactly. A `true` is a
/// `Bool` and a `1` a `Double`, which `JSONSerialization`'s `NSNumber` on Linux cannot tell apart.
/// Control requests and recordings are both read this way.
package enum ExactJSON {
    /// The parsed value, or nil when `bytes` are not JSON (or not UTF-8).
    package static func parse(_ bytes: some Sequence<UInt8>) -> Any? {
        (try? JSONDecoder().decode(Value.self, from: Data(bytes)))?.foundation
    }

    private enum Value: Decodable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        var foundation: Any {
            switch self {
            case .null: NSNull()
            case .bool(let value): value
            case .number(let value): value
            case .string(let value): value
            case .array(let values): values.map(\.foundation)
            case .object(let values): values.mapValues(\.foundation)
            }
        }
    }
}
