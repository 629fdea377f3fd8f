/// Reads JSON (RFC 8259) into a ``JSONValue``, with every number read back to the exact
/// `Double` that was written, or says what is wrong and where (``JSONSyntaxError``).
///
/// Why our own parser: numbers must be exact. On Linux `JSONSerialization` rounds about half of
/// all 17-digit numbers to a neighbouring `Double` (measured: 45 943 of 100 000 random values in
/// [−180, 180]), which made a replay differ from its live run by 1e-9 m. `JSONDecoder` reads them
/// exactly, but it brings FoundationEssentials into the programs (3.4 MB more resident memory on
/// the wearable), and on Linux it reports every syntax error as "The given data was not valid
/// JSON.", without the reason or the position. Here each number's text goes to the standard
/// library's `Double(_:)`, which is correctly rounded. Control requests, control replies, state
/// files and recordings are all read this way.
package struct JSONParser {
    /// Arrays and objects nested deeper than this are refused, as `JSONDecoder` refuses them,
    /// before the parser's recursion could exhaust a thread's stack.
    package static let maximumDepth = 512

    /// Parses `bytes`: one JSON value with nothing but whitespace around it.
    ///
    /// Numbers that overflow a `Double`, or that are not zero but would read as zero, are refused,
    /// as `JSONDecoder` refuses them: the value written cannot be kept. A `\u` escape
    /// of half a surrogate pair without its other half is refused, since it names no character. An
    /// object that repeats a member name keeps the last one.
    ///
    /// - Parameter bytes: UTF-8 text.
    /// - Throws: ``JSONSyntaxError`` saying what is wrong and where.
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let bytes = Array(bytes)
        // Checked first, so that every error position starts a whole character.
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .notUTF8 }
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.unexpected("expected the end of the file") }
        return value
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The byte at `index`; an error at the end of the bytes.
    private func current() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd(at: position(of: index)) }
        return bytes[index]
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        switch try current() {
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            try container(depth: depth, closing: "}") { parser throws(JSONSyntaxError) in
                parser.skipWhitespace()
                guard try parser.current() == UInt8(ascii: "\"") else {
                    throw parser.unexpected("expected a member name in quotes")
                }
                let name = try parser.string()
                parser.skipWhitespace()
                try parser.expect(":")
                members[name] = try parser.value(depth: depth + 1)
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try container(depth: depth, closing: "]") { parser throws(JSONSyntaxError) in
                elements.append(try parser.value(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: throw unexpected("expected a value")
        }
    }

    /// An object or an array: `{` or `[` (at `index`), members separated by commas, `closing`.
    private mutating func container(
        depth: Int, closing: Unicode.Scalar, member: (inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw .nestedTooDeep(limit: Self.maximumDepth, at: position(of: index))
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

    /// A string, from its opening quote (at `index`) to its closing one, escapes resolved.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var text: [UInt8] = []
        var runStart = index
        while true {
            switch try current() {
            case UInt8(ascii: "\""):
                text += bytes[runStart..<index]
                index += 1
                // The bytes were checked to be UTF-8, and escapes add whole scalars.
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                text += bytes[runStart..<index]
                try escape(into: &text)
                runStart = index
            case 0..<0x20:
                throw unexpected("control characters in strings must be escaped")
            default:
                index += 1
            }
        }
    }

    /// One escape, from its backslash (at `index`) to just after it, appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(JSONSyntaxError) {
        let backslash = index
        index += 1
        let replacement: Unicode.Scalar
        switch try current() {
        case UInt8(ascii: "\""): replacement = "\""
        case UInt8(ascii: "\\"): replacement = "\\"
        case UInt8(ascii: "/"): replacement = "/"
        case UInt8(ascii: "b"): replacement = "\u{08}"
        case UInt8(ascii: "f"): replacement = "\u{0C}"
        case UInt8(ascii: "n"): replacement = "\n"
        case UInt8(ascii: "r"): replacement = "\r"
        case UInt8(ascii: "t"): replacement = "\t"
        case UInt8(ascii: "u"): replacement = try unicodeEscape(backslash: backslash)
        default: throw unexpected("expected one of \" \\ / b f n r t u after a backslash")
        }
        index += 1
        text += Array(String(replacement).utf8)
    }

    /// `\uXXXX` (its `u` at `index`), or a UTF-16 surrogate pair `\uD83D\uDE00` that together
    /// name one character; `index` ends on the last hex digit.
    private mutating func unicodeEscape(backslash: Int) throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try hexQuad()
        switch first {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed at once by a `\u` escape of a low one.
            guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u")
            else { throw unpairedSurrogate(at: backslash) }
            index += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw unpairedSurrogate(at: backslash) }
            let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw unpairedSurrogate(at: backslash) }
            return scalar
        case 0xDC00...0xDFFF:
            throw unpairedSurrogate(at: backslash)
        default:
            guard let scalar = Unicode.Scalar(first) else { throw unpairedSurrogate(at: backslash) }
            return scalar
        }
    }

    /// The four hex digits after a `u` (at `index`); `index` ends on the last one.
    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            index += 1
            let byte = try current()
            guard let digit = HexDigit.value(byte) else {
                throw unexpected("expected a hex digit of a \\u escape")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and within a `Double`'s range.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if try current() == UInt8(ascii: "-") { index += 1 }
        let mantissaStart = index
        if try current() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        let mantissa = bytes[mantissaStart..<index]
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            let sign = try current()
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // `Double(_:)` rounds correctly; the grammar above has already refused the `nan`, `inf`
        // and hex forms it would also accept.
        guard let value = Double(text), value.isFinite else {
            throw .numberTooLarge(text, at: position(of: start))
        }
        guard value != 0 || mantissa.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) else {
            throw .numberTooSmall(text, at: position(of: start))
        }
        return value
    }

    /// One or more decimal digits.
    private mutating func digits() throws(JSONSyntaxError) {
        guard try Self.isDigit(current()) else { throw unexpected("expected a digit") }
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard try current() == expected else { throw unexpected("expected \(word)") }
            index += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(JSONSyntaxError) {
        guard try current() == UInt8(ascii: character) else { throw unexpected("expected '\(character)'") }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    // MARK: - Errors

    /// The character at `index` is not allowed there.
    private func unexpected(_ detail: String) -> JSONSyntaxError {
        // The bytes are valid UTF-8 (checked first), so a whole character starts at `index`.
        let scalar = String(decoding: bytes[index...].prefix(4), as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        return .unexpectedCharacter(scalar, at: position(of: index), detail: detail)
    }

    /// The `\uXXXX` escape whose backslash is at `backslash` is half a surrogate pair alone.
    private func unpairedSurrogate(at backslash: Int) -> JSONSyntaxError {
        let escape = String(decoding: bytes[backslash..<min(backslash + 6, bytes.count)], as: UTF8.self)
        return .unpairedSurrogate(escape, at: position(of: backslash))
    }

    /// Where byte `offset` is. Counted only for an error, so parsing keeps no line count.
    private func position(of offset: Int) -> JSONSyntaxError.Position {
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return .init(line: line, column: column)
    }
}
