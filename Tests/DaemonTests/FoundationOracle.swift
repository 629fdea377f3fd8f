import ControlProtocol
import Foundation
import TestSupport

/// Foundation's `JSONEncoder`, which wrote every line and file before the programs stopped linking
/// Foundation: the oracle the hand-written JSON code is compared with.
enum FoundationOracle {
    /// `value` as `JSONEncoder` writes it with `.sortedKeys` and `.withoutEscapingSlashes`, plus
    /// `.prettyPrinted` when `pretty`.
    static func bytes(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// A ``JSONValue`` as `JSONEncoder` writes it.
    static func bytes(of value: JSONValue, pretty: Bool = false) throws -> [UInt8] {
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

/// Random JSON for comparing with the oracle: every kind of value, awkward strings and numbers.
struct RandomJSON {
    var generator: SeededGenerator

    /// Characters that strings must escape or must not: every control character, quotes,
    /// backslashes, slashes, non-ASCII (two, three and four UTF-8 bytes), and line separators.
    static let awkwardCharacters: [Character] =
        (0..<0x20).map { Character(Unicode.Scalar($0)!) } + [
            "\"", "\\", "/", "\u{7F}", "é", "€", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "e\u{301}", "a", "Z", " ",
            "0", ":", ",", "{", "]",
        ]

    mutating func number() -> Double {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: return Double.random(in: -180...180, using: &generator)
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 2:
            return [
                0.0, -0.0, 0.1, 1e-05, 1e21, 1e16, 1e15, 1.2345678901234568e+20, Double.leastNonzeroMagnitude,
                Double.greatestFiniteMagnitude,
            ][
                Int.random(in: 0..<10, using: &generator)]
        case 3: return pow(10, Double(Int.random(in: -30...30, using: &generator)))
        case 4: return Double(Int.random(in: -(1 << 53)...(1 << 53), using: &generator))
        case 5: return Double.random(in: 0..<1e-3, using: &generator)
        default:
            let bits = Double(bitPattern: generator.next())
            return bits.isFinite ? bits : 1.5
        }
    }

    mutating func string() -> String {
        String(
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                Self.awkwardCharacters.randomElement(using: &generator)!
            })
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        let containers = depth < 4
        switch Int.random(in: 0..<(containers ? 7 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2, 3: return .number(number())
        case 4: return .string(string())
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }
}
