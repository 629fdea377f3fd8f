/// Why bytes are not JSON (RFC 8259), and where: each message is one a person can act on, such
/// as `unexpected character 'N' at line 3, column 12; expected a value`.
package enum JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the text: both counted from 1, the column in characters (not bytes).
    package struct Position: Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        package var line: Int
        /// The character in the line, from 1.
        package var column: Int

        /// A position from its line and column, both counted from 1.
        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line 3, column 12`.
        package var description: String { "line \(line), column \(column)" }
    }

    /// The bytes are not valid UTF-8, so they are not text at all.
    case notUTF8
    /// The text ends where more was needed (inside a string, an array, after a `:`…).
    case unexpectedEnd(at: Position)
    /// A character that cannot be there; `detail` says what was expected, or why it is wrong.
    case unexpectedCharacter(Unicode.Scalar, at: Position, detail: String)
    /// A number whose magnitude is too large for a `Double` (it would read as infinity).
    case numberTooLarge(String, at: Position)
    /// A number that is not zero but too close to zero for a `Double` (it would read as 0).
    case numberTooSmall(String, at: Position)
    /// A `\uD800`–`\uDFFF` escape that is not one half of a high-then-low surrogate pair, so it
    /// names no character.
    case unpairedSurrogate(String, at: Position)
    /// Arrays and objects nested deeper than `limit`.
    case nestedTooDeep(limit: Int, at: Position)

    package var description: String {
        switch self {
        case .notUTF8:
            return "not UTF-8 text"
        case .unexpectedEnd(let position):
            return "unexpected end of file at \(position)"
        case .unexpectedCharacter(let scalar, let position, let detail):
            return "unexpected character \(Self.shown(scalar)) at \(position); \(detail)"
        case .numberTooLarge(let text, let position):
            return "the number \(text) at \(position) is too large for a Double"
        case .numberTooSmall(let text, let position):
            return "the number \(text) at \(position) is too close to zero for a Double"
        case .unpairedSurrogate(let escape, let position):
            return "the escape \(escape) at \(position) is half of a surrogate pair without the other half"
        case .nestedTooDeep(let limit, let position):
            return "arrays and objects nested more than \(limit) deep at \(position)"
        }
    }

    /// `'N'` for a visible character; `U+000A` for whitespace and control characters, which would
    /// be invisible or break the message's line.
    private static func shown(_ scalar: Unicode.Scalar) -> String {
        guard scalar.properties.isWhitespace || scalar.properties.generalCategory == .control else {
            return "'\(scalar)'"
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
