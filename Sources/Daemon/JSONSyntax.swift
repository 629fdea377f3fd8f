/// Finds where bytes stop being JSON (RFC 8259) and says why, with the line and column, for a
/// message a person can act on: `unexpected character 'N' at line 3, column 12; expected a value`.
///
/// Why: `JSONDecoder` on Linux reports every syntax error as "The given data was not valid
/// JSON.", without the reason or the position, and full Foundation's `JSONSerialization`, which
/// has them, is not worth loading CoreFoundation and ICU into the daemon for. This only checks;
/// the values are still read by `JSONDecoder`.
struct JSONSyntax {
    /// Arrays and objects nested deeper than this are refused, as `JSONDecoder` refuses them,
    /// before the check's recursion could exhaust a thread's stack.
    static let maximumDepth = 512

    /// The first syntax error in `bytes`, or nil when they are one JSON value with nothing but
    /// whitespace after it.
    static func firstError(in bytes: [UInt8]) -> String? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return "not UTF-8 text" }
        var scanner = JSONSyntax(bytes: bytes)
        do throws(Problem) {
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.index < bytes.count { throw scanner.unexpected("expected the end of the file") }
            return nil
        } catch {
            return error.message
        }
    }

    private struct Problem: Error {
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The byte at `index`; an error at the end of the bytes.
    private func current() throws(Problem) -> UInt8 {
        guard index < bytes.count else { throw Problem(message: "unexpected end of file at \(position)") }
        return bytes[index]
    }

    private mutating func value(depth: Int) throws(Problem) {
        skipWhitespace()
        switch try current() {
        case UInt8(ascii: "{"):
            try container(depth: depth, closing: "}") { scanner throws(Problem) in
                scanner.skipWhitespace()
                guard try scanner.current() == UInt8(ascii: "\"") else { throw scanner.unexpected("expected a member name in quotes") }
                try scanner.string()
                scanner.skipWhitespace()
                try scanner.expect(":")
                try scanner.value(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try container(depth: depth, closing: "]") { scanner throws(Problem) in try scanner.value(depth: depth + 1) }
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw unexpected("expected a value")
        }
    }

    /// An object or an array: `{` or `[` (at `index`), members separated by commas, `closing`.
    private mutating func container(
        depth: Int, closing: Unicode.Scalar, member: (inout JSONSyntax) throws(Problem) -> Void
    ) throws(Problem) {
        guard depth < Self.maximumDepth else {
            throw Problem(message: "arrays and objects nested more than \(Self.maximumDepth) deep at \(position)")
        }
        index += 1
        skipWhitespace()
        if try current() == UInt8(ascii: closing) {
            index += 1
            return
        }
        while true {
            try member(&self)
            skipWhitespace()
            let separator = try current()
            if separator == UInt8(ascii: closing) {
                index += 1
                return
            }
            guard separator == UInt8(ascii: ",") else { throw unexpected("expected ',' or '\(closing)'") }
            index += 1
        }
    }

    /// A string, from its opening quote (at `index`) to its closing one.
    private mutating func string() throws(Problem) {
        index += 1
        while true {
            switch try current() {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                switch try current() {
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        index += 1
                        guard try Self.isHexDigit(current()) else { throw unexpected("expected a hex digit of a \\u escape") }
                    }
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                default: throw unexpected("expected one of \" \\ / b f n r t u after a backslash")
                }
                index += 1
            case 0..<0x20:
                throw unexpected("control characters in strings must be escaped")
            default:
                index += 1
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and within a `Double`'s range.
    private mutating func number() throws(Problem) {
        let start = index
        if try current() == UInt8(ascii: "-") { index += 1 }
        if try current() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            let sign = try current()
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw Problem(message: "the number \(text) at \(position) is too large for a Double")
        }
    }

    /// One or more decimal digits.
    private mutating func digits() throws(Problem) {
        guard try Self.isDigit(current()) else { throw unexpected("expected a digit") }
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private mutating func literal(_ word: String) throws(Problem) {
        for expected in word.utf8 {
            guard try current() == expected else { throw unexpected("expected \(word)") }
            index += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(Problem) {
        guard try current() == UInt8(ascii: character) else { throw unexpected("expected '\(character)'") }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    // MARK: - Messages

    /// The character at `index` is not allowed there: `unexpected character 'N' at line 1,
    /// column 37; expected a value`.
    private func unexpected(_ detail: String) -> Problem {
        // The bytes are valid UTF-8 (checked first), so a whole character starts at `index`.
        let scalar = String(decoding: bytes[index...].prefix(4), as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        let shown: String
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            shown = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        } else {
            shown = "'\(scalar)'"
        }
        return Problem(message: "unexpected character \(shown) at \(position); \(detail)")
    }

    /// `line 3, column 12`: where `index` is, both counted from 1, the column in characters.
    private var position: String {
        let before = bytes[..<index]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
        return "line \(line), column \(column)"
    }
}
