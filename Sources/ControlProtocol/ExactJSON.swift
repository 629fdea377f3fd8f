import FoundationEssentials

/// Parses JSON into a ``Value``, with every number read back to the exact `Double` that was
/// written.
///
/// Why: on Linux `JSONSerialization` rounds about half of all 17-digit numbers to a
/// neighbouring `Double` (measured: 45 943 of 100 000 random values in [−180, 180]), which made
/// a replay differ from its live run by 1e-9 m. `JSONDecoder` reads them exactly, and it is in
/// FoundationEssentials, so the daemon does not load full Foundation (CoreFoundation and ICU) for
/// it. A `true` is a `.bool` and a `1` a `.number`, which `JSONSerialization`'s `NSNumber` on
/// Linux cannot tell apart. Control requests and recordings are both read this way.
package enum ExactJSON {
    /// One JSON value.
    package enum Value: Sendable, Hashable, Decodable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, exactly as written (a JSON number too large for a `Double` is not JSON here).
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([Value])
        /// An object.
        case object([String: Value])

        package init(from decoder: any Decoder) throws {
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

        /// The boolean, or nil for any other kind of value.
        package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
        /// The number, or nil for any other kind of value.
        package var number: Double? { if case .number(let value) = self { value } else { nil } }
        /// The string, or nil for any other kind of value.
        package var string: String? { if case .string(let value) = self { value } else { nil } }
        /// The elements, or nil for any other kind of value.
        package var array: [Value]? { if case .array(let values) = self { values } else { nil } }
        /// The members, or nil for any other kind of value.
        package var object: [String: Value]? { if case .object(let values) = self { values } else { nil } }
    }

    /// The parsed value, or nil when `bytes` are not JSON (or not UTF-8).
    package static func parse(_ bytes: some Sequence<UInt8>) -> Value? {
        // The callers answer any failure with their own "not JSON" message; JSONDecoder's error
        // would add no position or reason (it has none on Linux).
        try? JSONDecoder().decode(Value.self, from: Data(bytes))
    }
}
