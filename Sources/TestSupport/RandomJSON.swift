import Foundation
import TextFormats

/// Random JSON for comparing with the oracle: every kind of value, awkward strings and numbers.
package struct RandomJSON {
    package var generator: SeededGenerator

    package init(generator: SeededGenerator) { self.generator = generator }

    /// Characters that strings must escape or must not: every control character, quotes,
    /// backslashes, slashes, non-ASCII (two, three and four UTF-8 bytes), and line separators.
    package static let awkwardCharacters: [Character] =
        (0..<0x20).map { Character(Unicode.Scalar($0)!) } + [
            "\"", "\\", "/", "\u{7F}", "é", "€", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "e\u{301}", "a", "Z", " ",
            "0", ":", ",", "{", "]",
        ]

    package mutating func number() -> Double {
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

    package mutating func string() -> String {
        String(
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                Self.awkwardCharacters.randomElement(using: &generator)!
            })
    }

    package mutating func value(depth: Int = 0) -> JSONValue {
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
