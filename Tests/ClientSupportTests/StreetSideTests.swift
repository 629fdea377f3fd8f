import ClientSupport
import Testing

/// Which side of a street a walker is on, from where its nearest point lies (issue 40).
@Suite("The side of a street", .timeLimit(.minutes(5)))
struct StreetSideTests {
    @Test("the side faces away from the street: due south of the walker, its north side", arguments: [
        (180.0, "north"), (0, "south"), (90, "west"), (270, "east"), (359.9, "south"), (44, "south"), (46, "west"), (136, "north"),
    ])
    func side(bearing: Double, expected: String) {
        #expect(Presentation.side(streetBearingDegrees: bearing) == expected)
    }
}
