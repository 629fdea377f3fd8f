import ControlProtocol
import Foundation
import TestSupport
import Testing
import TextFormats

/// The parser's message for `text`, or nil when it parses.
private func parseError(_ text: String) -> String? { parseError(Array(text.utf8)) }

private func parseError(_ bytes: [UInt8]) -> String? {
    do throws(JSONSyntaxError) {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error.description
    }
}

@Suite("JSON parser: values, and syntax errors with what and where", .timeLimit(.minutes(5)))
struct JSONParserTests {
    @Test(
        "valid JSON parses to the value written",
        arguments: [
            (#"{"version":1,"destination":null}"#, JSONValue.object(["version": .number(1), "destination": .null])),
            ("[]", .array([])),
            ("{}", .object([:])),
            (
                " [1, -0.5e+3, 2E-2, true, false, null] \n",
                .array([.number(1), .number(-500), .number(0.02), .bool(true), .bool(false), .null])
            ),
            (
                #"{"a":"\u00e9\n\"\\\/","b":[{}],"c":"é"}"#,
                .object(["a": .string("é\n\"\\/"), "b": .array([.object([:])]), "c": .string("é")])
            ),
            ("{\n  \"version\" : 1\n}\n", .object(["version": .number(1)])),
            ("0", .number(0)),
            ("-0", .number(-0.0)),
            (#""""#, .string("")),
            (#"{"a":1,"a":2}"#, .object(["a": .number(2)])),
        ] as [(String, JSONValue)])
    func valid(_ text: String, _ expected: JSONValue) throws {
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value == expected)
        if case .number(let number) = value {
            // -0 and 0 are ==; the sign must survive too.
            #expect(number.sign == expected.number?.sign)
        }
    }

    @Test(
        "each error names what is wrong and where",
        arguments: [
            (#"{"version":1,"destination":{"lat":48.8,"lon":"#, "unexpected end of file at line 1, column 46"),
            (
                #"{"version":1,"destination":{"lat":1e999,"lon":2}}"#,
                "the number 1e999 at line 1, column 35 is too large for a Double"
            ),
            (#"[-1e309]"#, "the number -1e309 at line 1, column 2 is too large for a Double"),
            (
                #"{"version":1,"destination":{"lat":NaN,"lon":2}}"#,
                "unexpected character 'N' at line 1, column 35; expected a value"
            ),
            (#"{"offset":[0,0,-Infinity]}"#, "unexpected character 'I' at line 1, column 17; expected a digit"),
            (
                "{\n  \"version\": 1,\n  \"muted\": tru\n}",
                "unexpected character U+000A at line 3, column 15; expected true"
            ),
            ("{\"version\":1,}", "unexpected character '}' at line 1, column 14; expected a member name in quotes"),
            ("[1 2]", "unexpected character '2' at line 1, column 4; expected ',' or ']'"),
            ("{\"a\":1 \"b\":2}", "unexpected character '\"' at line 1, column 8; expected ',' or '}'"),
            ("{\"a\" 1}", "unexpected character '1' at line 1, column 6; expected ':'"),
            ("{} x", "unexpected character 'x' at line 1, column 4; expected the end of the file"),
            ("[\"é\", 01]", "unexpected character '1' at line 1, column 8; expected ',' or ']'"),
            (
                "[\"a\tb\"]",
                "unexpected character U+0009 at line 1, column 4; control characters in strings must be escaped"
            ),
            (
                #"["\x"]"#,
                #"unexpected character 'x' at line 1, column 4; expected one of " \ / b f n r t u after a backslash"#
            ),
            (#"["\u12G4"]"#, #"unexpected character 'G' at line 1, column 7; expected a hex digit of a \u escape"#),
            (#"["\u12"#, "unexpected end of file at line 1, column 7"),
            ("", "unexpected end of file at line 1, column 1"),
            ("[1.]", "unexpected character ']' at line 1, column 4; expected a digit"),
            ("[1e]", "unexpected character ']' at line 1, column 4; expected a digit"),
            ("[-]", "unexpected character ']' at line 1, column 3; expected a digit"),
            ("[+1]", "unexpected character '+' at line 1, column 2; expected a value"),
            ("nul", "unexpected end of file at line 1, column 4"),
            ("[fals]", "unexpected character ']' at line 1, column 6; expected false"),
            ("\"abc", "unexpected end of file at line 1, column 5"),
            (
                #"["\uD83D"]"#,
                #"the escape \uD83D at line 1, column 3 is half of a surrogate pair without the other half"#
            ),
            (
                #"["\uDE00"]"#,
                #"the escape \uDE00 at line 1, column 3 is half of a surrogate pair without the other half"#
            ),
            (
                #"["x\uD83D\u0041"]"#,
                #"the escape \uD83D at line 1, column 4 is half of a surrogate pair without the other half"#
            ),
            (
                #"["\uD83D\n"]"#,
                #"the escape \uD83D at line 1, column 3 is half of a surrogate pair without the other half"#
            ),
            (
                #"["\uD83D\uDE0"]"#,
                #"unexpected character '"' at line 1, column 14; expected a hex digit of a \u escape"#
            ),
        ] as [(String, String)])
    func errors(_ text: String, _ message: String) {
        #expect(parseError(text) == message)
    }

    @Test("an error is a value with its position, not only a message")
    func structuredError() {
        #expect(
            throws: JSONSyntaxError.unexpectedCharacter("x", at: .init(line: 2, column: 3), detail: "expected a value")
        ) {
            try JSONParser.parse(Array("[1,\n  x]".utf8))
        }
        #expect(throws: JSONSyntaxError.nestedTooDeep(limit: 512, at: .init(line: 1, column: 513))) {
            try JSONParser.parse(Array(String(repeating: "[", count: 600).utf8))
        }
    }

    @Test(
        "bytes that are not UTF-8 are named as such",
        arguments: [
            [0x7B, 0xFF, 0x7D],  // a byte that is never UTF-8
            [0x22, 0xC0, 0x80, 0x22],  // an overlong NUL
            [0x22, 0x80, 0x22],  // a continuation byte alone
            [0x22, 0xE2, 0x82, 0x22],  // a three-byte sequence cut short
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // a UTF-16 surrogate encoded as UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
        ] as [[UInt8]])
    func notUTF8(_ bytes: [UInt8]) {
        #expect(parseError(bytes) == "not UTF-8 text")
        // Foundation refuses them too.
        #expect(throws: (any Error).self) { try JSONDecoder().decode(String.self, from: Data(bytes)) }
    }

    @Test("nesting is refused past the limit, without exhausting the stack")
    func deepNesting() throws {
        let depth = JSONParser.maximumDepth
        #expect(depth == 512)
        let fine = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(Array(fine.utf8))
        for _ in 1..<depth {
            guard case .array(let elements) = value, elements.count == 1 else {
                Issue.record("expected one array inside the next")
                return
            }
            value = elements[0]
        }
        #expect(value == .array([]))
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parseError(objects) == nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect(parseError(deep) == "arrays and objects nested more than \(depth) deep at line 1, column \(depth + 1)")
        let deepObjects = String(repeating: #"{"a":"#, count: depth + 1)
        #expect(parseError(deepObjects) == "arrays and objects nested more than \(depth) deep at line 1, column 2561")
    }

    @Test(
        "every escape is resolved",
        arguments: [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0000\u001f\u007F""#, "\u{00}\u{1F}\u{7F}"),
            (#""\u00e9\u00E9\u20AC""#, "éé€"),
            (#""\uD83D\uDE00""#, "😀"),
            (#""a\ud83d\ude00b\uDBFF\uDFFF""#, "a😀b\u{10FFFF}"),
            (#""\uFFFF\uFEFF""#, "\u{FFFF}\u{FEFF}"),
            (#""é😀 / plain""#, "é😀 / plain"),
        ] as [(String, String)])
    func escapes(_ text: String, _ expected: String) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == .string(expected))
        // The oracle agrees on what the text says.
        #expect(try JSONDecoder().decode(String.self, from: Data(text.utf8)) == expected)
    }

    @Test("numbers read back to the exact Double written, as JSONDecoder reads them")
    func exactNumbers() throws {
        var generator = SeededGenerator(seed: 0x4A53_4F4E)
        var texts: [String] = []
        for _ in 0..<20_000 {
            let degrees = Double.random(in: -180...180, using: &generator)
            texts.append("\(degrees)")
            texts.append(String(format: "%.17g", degrees))
            texts.append(String(format: "%.17e", degrees))
            // Any bit pattern that is a finite Double, subnormals included.
            let bits = Double(bitPattern: generator.next())
            if bits.isFinite { texts.append("\(bits)") }
        }
        texts += [
            "0", "-0", "0.1", "1e-05", "1e21", "123456789012345680000", "9007199254740993", "1.7976931348623157e308",
            "4.9e-324", "2.4703282292062328e-324", "3e-324", "0.30000000000000004", "1E+2", "12345678901234567890123",
            "0e-400", "-0.000e999", "0.0", "1e-323",
        ]
        for text in texts {
            let expected: Double
            do {
                expected = try JSONDecoder().decode([Double].self, from: Data("[\(text)]".utf8))[0]
            } catch {
                Issue.record("JSONDecoder refused \(text): \(error)")
                continue
            }
            let value = try JSONParser.parse(Array(text.utf8))
            #expect(value.number?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test(
        "numbers that are not zero but would read as zero are refused, as JSONDecoder refuses them",
        arguments: ["1e-400", "-1e-400", "2e-324", "0.000001e-320"])
    func underflow(_ text: String) {
        #expect(parseError(text) == "the number \(text) at line 1, column 1 is too close to zero for a Double")
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Double.self, from: Data(text.utf8)) }
    }

    @Test(
        "numbers too large for a Double are refused, as JSONDecoder refuses them",
        arguments: ["1e309", "-1.8e308", "1" + String(repeating: "0", count: 400)])
    func overflow(_ text: String) {
        #expect(parseError(text) == "the number \(text) at line 1, column 1 is too large for a Double")
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Double.self, from: Data(text.utf8)) }
    }
}
