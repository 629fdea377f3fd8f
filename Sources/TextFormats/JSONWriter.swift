/// Writes a ``JSONValue`` as JSON text, byte for byte as Foundation's `JSONEncoder` writes it
/// with `.sortedKeys` and `.withoutEscapingSlashes` (plus `.prettyPrinted` for
/// ``Layout/pretty``): tests, the README and saved state files pin those bytes, and they were
/// written by `JSONEncoder` before the programs stopped linking Foundation.
///
/// - Members are sorted by the UTF-8 bytes of their names.
/// - Strings escape `"` and `\`, write U+0008, U+000C, LF, CR and tab as `\b \f \n \r \t` and
///   the other control characters as `\u00xx` (lower-case hex); everything else, `/` included,
///   is written as UTF-8.
/// - Numbers are written by ``number(_:)``.
package enum JSONWriter {
    /// How the text is laid out.
    package enum Layout: Sendable {
        /// One line, no spaces: `{"a":[1,2]}`. For the control protocol's lines.
        case compact
        /// Two-space indentation, one member or element a line, `"name" : value`. For files
        /// people read. An empty array or object is written as its brackets with an empty line
        /// between them, as `JSONEncoder` writes it.
        case pretty
    }

    /// `value` as JSON text, with no newline at the end.
    ///
    /// - Precondition: Every number in `value` is finite. JSON has none other, ``JSONParser``
    ///   makes none, and ``JSONValueEncoder`` refuses them.
    package static func bytes(_ value: JSONValue, layout: Layout) -> [UInt8] {
        var output: [UInt8] = []
        write(value, layout: layout, indent: 0, to: &output)
        return output
    }

    /// A member of an object written in the order given (``line(_:)``): a value, or an object
    /// whose members keep their order too.
    package enum Ordered: Sendable {
        /// A value; its own objects, if any, are written with sorted keys.
        case value(JSONValue)
        /// An object whose members are written in this order.
        case object([(String, Ordered)])

        /// A number, or `null` when there is none or it is not finite (JSON has no NaN).
        package static func number(_ value: Double?) -> Ordered {
            .value(value.flatMap { $0.isFinite ? JSONValue.number($0) : nil } ?? .null)
        }

        /// A string, or `null`.
        package static func string(_ text: String?) -> Ordered { .value(text.map(JSONValue.string) ?? .null) }
    }

    /// An object whose members are written in the order given, compact, on one line without its
    /// newline: for lines whose order people and other tools read (a recording's `t` first, a
    /// fix in gpsd's TPV order). Values are written as everywhere else.
    package static func line(_ members: [(String, Ordered)]) -> String {
        var output: [UInt8] = []
        writeOrdered(.object(members), to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func writeOrdered(_ value: Ordered, to output: inout [UInt8]) {
        switch value {
        case .value(let value):
            write(value, layout: .compact, indent: 0, to: &output)
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, layout: .compact, indent: 0, to: &output) {
                index, output in
                writeString(members[index].0, to: &output)
                output.append(UInt8(ascii: ":"))
                writeOrdered(members[index].1, to: &output)
            }
        }
    }

    /// A finite number as `JSONEncoder` writes it: Swift's shortest form that reads back to the
    /// same `Double` (its `description`), less a final `.0`, so `5` and not `5.0`, but `1e-05`,
    /// `1e+21`, `-0` and `1.2345678901234568e+20` as they are.
    ///
    /// - Precondition: `value` is finite.
    package static func number(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no NaN or infinity; \(value) cannot be written")
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `text` as a JSON string, quotes included.
    package static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        writeString(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The indentation of one level of ``Layout/pretty``.
    private static let indentUnit = Array("  ".utf8)

    private static func write(_ value: JSONValue, layout: Layout, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .null: output += "null".utf8
        case .bool(let flag): output += (flag ? "true" : "false").utf8
        case .number(let number): output += self.number(number).utf8
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, layout: layout, indent: indent, to: &output) {
                index, output in
                write(elements[index], layout: layout, indent: indent + 1, to: &output)
            }
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            writeContainer(open: "{", close: "}", count: sorted.count, layout: layout, indent: indent, to: &output) {
                index, output in
                writeString(sorted[index].key, to: &output)
                output += (layout == .pretty ? " : " : ":").utf8
                write(sorted[index].value, layout: layout, indent: indent + 1, to: &output)
            }
        }
    }

    /// The brackets, and between them `count` items separated by commas (and, when pretty, by
    /// newlines and indentation), each written by `item`.
    private static func writeContainer(
        open: Unicode.Scalar, close: Unicode.Scalar, count: Int, layout: Layout, indent: Int, to output: inout [UInt8],
        item: (Int, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        for index in 0..<count {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if layout == .pretty {
                output.append(UInt8(ascii: "\n"))
                for _ in 0...indent { output += indentUnit }
            }
            item(index, &output)
        }
        if layout == .pretty {
            // Also for an empty container, which JSONEncoder writes as "[\n\n]".
            output.append(UInt8(ascii: "\n"))
            if count == 0 { output.append(UInt8(ascii: "\n")) }
            for _ in 0..<indent { output += indentUnit }
        }
        output.append(UInt8(ascii: close))
    }

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0..<0x20:
                output += #"\u00"#.utf8
                output.append(HexDigit.lowercase(byte >> 4))
                output.append(HexDigit.lowercase(byte & 0x0F))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
