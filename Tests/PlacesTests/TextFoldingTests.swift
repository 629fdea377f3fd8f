import Places
import Testing

/// What the index and the query compare (issue 27): case, accents and ligatures off, the rest
/// a word break. Expected words written by hand.
@Suite("Text folding", .timeLimit(.minutes(5)))
struct TextFoldingTests {
    @Test(
        "case, accents, ligatures and Catalan's punt volat",
        arguments: [
            ("Café de Flore", ["cafe", "de", "flore"]), ("Straße 12b", ["strasse", "12b"]), ("Col·legi Sant Ermengol", ["collegi", "sant", "ermengol"]),
            ("L'Église-Saint-Nicolas", ["l", "eglise", "saint", "nicolas"]), ("ÆRØ Łódź", ["aero", "lodz"]), ("  ", []),
            ("Avenue Albert II, 4-6", ["avenue", "albert", "ii", "4", "6"]), ("Москва", ["москва"]),
        ])
    func words(text: String, expected: [String]) {
        #expect(TextFolding.words(text) == expected)
        #expect(TextFolding.folded(text) == expected.joined(separator: " "))
    }
}
