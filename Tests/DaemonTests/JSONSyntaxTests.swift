import Testing

@testable import Daemon

@Suite("JSON syntax errors: what and where")
struct JSONSyntaxTests {
    @Test(
        "valid JSON has no error",
        arguments: [
            #"{"version":1,"destination":null}"#, "[]", "{}", " [1, -0.5e+3, 2E-2, true, false, null] \n",
            #"{"a":"\u00e9\n\"\\\/","b":[{}],"c":"é"}"#, "{\n  \"version\" : 1\n}\n", "0",
        ])
    func valid(_ text: String) {
        #expect(JSONSyntax.firstError(in: Array(text.utf8)) == nil)
    }

    @Test(
        "each error names what is wrong and where",
        arguments: [
            (#"{"version":1,"destination":{"lat":48.8,"lon":"#, "unexpected end of file at line 1, column 46"),
            (
                #"{"version":1,"destination":{"lat":1e999,"lon":2}}"#,
                "the number 1e999 at line 1, column 35 is too large for a Double"
            ),
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
            ("{\"a\" 1}", "unexpected character '1' at line 1, column 6; expected ':'"),
            ("{} x", "unexpected character 'x' at line 1, column 4; expected the end of the file"),
            ("[\"é\", 01]", "unexpected character '1' at line 1, column 8; expected ',' or ']'"),
            ("[\"a\tb\"]", "unexpected character U+0009 at line 1, column 4; control characters in strings must be escaped"),
            (#"["\x"]"#, #"unexpected character 'x' at line 1, column 4; expected one of " \ / b f n r t u after a backslash"#),
            (#"["\u12G4"]"#, #"unexpected character 'G' at line 1, column 7; expected a hex digit of a \u escape"#),
            ("", "unexpected end of file at line 1, column 1"),
            ("[1.]", "unexpected character ']' at line 1, column 4; expected a digit"),
        ] as [(String, String)])
    func errors(_ text: String, _ message: String) {
        #expect(JSONSyntax.firstError(in: Array(text.utf8)) == message)
    }

    @Test("bytes that are not UTF-8 are named as such")
    func notUTF8() {
        #expect(JSONSyntax.firstError(in: [0x7B, 0xFF, 0x7D]) == "not UTF-8 text")
    }

    @Test("nesting is refused past the limit, without exhausting the stack")
    func deepNesting() {
        let depth = JSONSyntax.maximumDepth
        let fine = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(JSONSyntax.firstError(in: Array(fine.utf8)) == nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect(
            JSONSyntax.firstError(in: Array(deep.utf8))
                == "arrays and objects nested more than \(depth) deep at line 1, column \(depth + 1)")
    }
}
