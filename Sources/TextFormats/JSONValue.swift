/// One JSON value: what ``JSONParser`` reads, what ``JSONValueEncoder`` builds and
/// ``JSONValueDecoder`` reads from, and what ``JSONWriter`` writes.
///
/// A `true` is a `.bool` and a `1` a `.number`, so the two are never confused (Foundation's
/// `JSONSerialization` on Linux reads both as the same `NSNumber`).
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written, and always finite: JSON has no NaN or infinity, and a number
    /// too large for a `Double` is refused by the parser.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. JSON leaves the order of members open, and the writer sorts them.
    case object([String: JSONValue])

    /// The boolean, or nil for any other kind of value.
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, or nil for any other kind of value.
    package var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// The string, or nil for any other kind of value.
    package var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The elements, or nil for any other kind of value.
    package var array: [JSONValue]? { if case .array(let values) = self { values } else { nil } }
    /// The members, or nil for any other kind of value.
    package var object: [String: JSONValue]? { if case .object(let values) = self { values } else { nil } }

    /// What kind of value this is, for messages: `a string`, `null`.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The same value with every string (not the member names) passed through `transform`.
    package func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let values): .array(values.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
        case .null, .bool, .number: self
        }
    }
}
