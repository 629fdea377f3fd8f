import Core
import Geodesy
import Testing

/// Named places found as the map's search finds names (issue 40: `go "cafe creme"` did not find
/// the place "Café Crème", which `search` found).
@Suite("The book of named places", .timeLimit(.minutes(5)))
struct PlaceBookTests {
    static func place(_ name: String) -> SavedDestination {
        SavedDestination(coordinate: Coordinate(uncheckedLatitudeDegrees: 43.7384, longitudeDegrees: 7.4246), name: name)
    }

    @Test("a name typed without its accents, in any case, finds the place")
    func accentsAside() throws {
        var book = PlaceBook()
        try book.add(Self.place("Café Crème"))
        #expect(book.place(named: "cafe creme")?.name == "Café Crème")
        #expect(book.place(named: "CAFÉ CRÈME")?.name == "Café Crème")
        #expect(book.place(named: "cafe") == nil)
        // Two names read alike are one name: the second is refused, as a second "Café Crème" would be.
        #expect(throws: PlaceBook.Refusal.exists("Café Crème")) { try book.add(Self.place("Cafe Creme")) }
    }
}
