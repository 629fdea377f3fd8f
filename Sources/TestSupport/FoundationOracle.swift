import Foundation
import TextFormats

/// Foundation's `JSONEncoder`, which wrote every line and file before the programs stopped linking
/// Foundation: the oracle the hand-written JSON code is compared with.
package enum FoundationOracle {
    /// `value` as `JSONEncoder` writes it with `.sortedKeys` and `.withoutEscapingSlashes`, plus
    /// `.prettyPrinted` when `pretty`.
    package static func bytes(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// A ``JSONValue`` as `JSONEncoder` writes it.
    package static func bytes(of value: JSONValue, pretty: Bool = false) throws -> [UInt8] {
        try bytes(Mirror(value: value), pretty: pretty)
    }

    /// Hands a ``JSONValue`` to `JSONEncoder` through the ordinary containers.
    private struct Mirror: Encodable {
        let value: JSONValue

        func encode(to encoder: any Encoder) throws {
            switch value {
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .bool(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .number(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .string(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(Mirror(value: element)) }
            case .object(let members):
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                for (name, member) in members {
                    try container.encode(Mirror(value: member), forKey: JSONCodingKey(stringValue: name))
                }
            }
        }
    }
}
