import ControlProtocol
import Testing
import TextFormats

/// Issue 18, item 2: a name can neither repaint a terminal nor split a line, on the way in
/// (refused by the protocol and the state files) or on the way out (escaped by the client).
@Suite("Place names", .timeLimit(.minutes(5)))
struct PlaceNameTests {
    @Test(
        "control characters and bidirectional overrides are refused, named with their position",
        arguments: [
            ("Eiffel\u{1B}[2J", 0x1B, 7, "U+001B (escape) at position 7"),
            ("a\u{0}b", 0x00, 2, "U+0000 (NUL) at position 2"),
            ("line1\nline2", 0x0A, 6, "U+000A (line feed)"),
            ("x\u{7F}", 0x7F, 2, "U+007F (delete)"),
            ("\u{85}next", 0x85, 1, "U+0085 at position 1"),
            ("\u{9B}31m", 0x9B, 1, "U+009B"),
            ("abc\u{202E}fed", 0x202E, 4, "U+202E (a bidirectional override)"),
            ("\u{2066}x\u{2069}", 0x2066, 1, "U+2066"),
            ("tab\there", 0x09, 4, "U+0009 (tab)"),
        ])
    func unprintable(name: String, scalar: UInt32, position: Int, words: String) {
        #expect(throws: PlaceNameError.unprintable(scalar: scalar, position: position)) { try PlaceName.validated(name) }
        let message = "\(PlaceNameError.unprintable(scalar: scalar, position: position))"
        #expect(message.contains(words), "\(message)")
    }

    @Test("names are trimmed; only spaces is refused; empty or absent is no name; 100 characters at most")
    func trimmingAndLength() throws {
        #expect(try PlaceName.validated("  Eiffel Tower \u{3000}") == "Eiffel Tower")
        #expect(try PlaceName.validated("Café «Zoë» 東京 🗼") == "Café «Zoë» 東京 🗼")
        #expect(try PlaceName.validated(nil) == nil)
        #expect(try PlaceName.validated("") == nil)
        #expect(throws: PlaceNameError.onlyWhitespace) { try PlaceName.validated("   ") }
        #expect(throws: PlaceNameError.onlyWhitespace) { try PlaceName.validated("\u{A0}\u{2003}") }
        #expect(try PlaceName.validated(String(repeating: "é", count: 100))?.count == 100)
        #expect(throws: PlaceNameError.tooLong(characters: 101)) { try PlaceName.validated(String(repeating: "n", count: 101)) }
        // Spaces around do not count against the limit.
        #expect(try PlaceName.validated("  " + String(repeating: "n", count: 100) + "  ")?.count == 100)
    }

    @Test("the socket refuses such names as bad-argument, and trims the rest")
    func overTheWire() throws {
        for line in [
            #"{"cmd":"go","lat":1,"lon":2,"name":"a\u0000b"}"#, #"{"cmd":"go","lat":1,"lon":2,"name":"\u001b[2J"}"#,
            #"{"cmd":"go","lat":1,"lon":2,"name":"   "}"#, #"{"cmd":"go","lat":1,"lon":2,"name":"x\u202Ey"}"#,
            #"{"cmd":"go","lat":1,"lon":2,"name":"\u0085"}"#,
        ] {
            #expect(throws: ControlError.self, "\(line)") { try ControlRequest(line: Array(line.utf8)) }
            do {
                _ = try ControlRequest(line: Array(line.utf8))
            } catch {
                #expect(error.code == .badArgument, "\(line)")
            }
        }
        let trimmed = try ControlRequest(line: Array(#"{"cmd":"go","lat":1,"lon":2,"name":"  bench "}"#.utf8))
        #expect(trimmed == .go(latitude: 1, longitude: 2, name: "bench"))
    }

    @Test("printable: controls and bidi overrides become \\u{..}, backslashes double, the rest is untouched")
    func printable() {
        #expect(PlaceName.printable("Eiffel\u{1B}[2J\u{1B}[41mX\nline2") == #"Eiffel\u{1B}[2J\u{1B}[41mX\u{0A}line2"#)
        #expect(PlaceName.printable("a\u{202E}b\u{9B}c\u{7F}") == #"a\u{202E}b\u{9B}c\u{7F}"#)
        #expect(PlaceName.printable(#"C:\path"#) == #"C:\\path"#)
        #expect(PlaceName.printable("Zoë 東京 🗼") == "Zoë 東京 🗼")
        for scalar in (0...0x10FFFF).lazy.compactMap(Unicode.Scalar.init) where PlaceName.isUnprintable(scalar) {
            let shown = PlaceName.printable(String(scalar))
            #expect(!shown.unicodeScalars.contains { PlaceName.isUnprintable($0) }, "\(scalar.value)")
        }
    }
}
