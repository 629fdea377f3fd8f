import ClientSupport
import Geodesy
import Testing
import TestSupport

/// How numbers read for a person, against the table both clients are held to (`Data/words.tsv`:
/// the companion page's words.js reads the same rows in headless Chromium), so that the phone
/// and waypointctl say "432 m" and "north-northeast" alike.
@Suite("Presentation: the words both clients share", .timeLimit(.minutes(5)))
struct PresentationTests {
    /// One row of the table: what to turn into words, and the words.
    struct Row: Sendable, CustomTestStringConvertible {
        var line: Int
        var kind: String
        var input: String
        var expected: String
        var testDescription: String { "\(kind) \(input) → \(expected)" }
    }

    static let rows: [Row] = {
        guard let text = try? TestData.text("Tests/ClientSupportTests/Data/words.tsv") else { return [] }
        return text.split(separator: "\n").enumerated().compactMap { index, line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { return nil }
            return Row(line: index + 1, kind: fields[0], input: fields[1], expected: fields[2])
        }
    }()

    @Test("the table is there, with every kind")
    func table() {
        #expect(Set(Self.rows.map(\.kind)) == ["distance", "compass", "whole-degrees", "dms"])
    }

    @Test("each row reads as written", arguments: rows)
    func words(row: Row) throws {
        switch row.kind {
        case "distance":
            #expect(Presentation.distance(meters: try #require(Double(row.input))) == row.expected, "line \(row.line)")
        case "compass":
            #expect(CompassPoint(bearingDegrees: try #require(Double(row.input)))?.spokenName == row.expected, "line \(row.line)")
        case "whole-degrees":
            #expect(String(Presentation.wholeDegrees(try #require(Double(row.input)))) == row.expected, "line \(row.line)")
        case "dms":
            let parts = row.input.split(separator: ",").compactMap { Double($0) }
            try #require(parts.count == 2, "line \(row.line)")
            let coordinate = Coordinate(uncheckedLatitudeDegrees: parts[0], longitudeDegrees: parts[1])
            #expect(coordinate.formattedDegreesMinutesSeconds() == row.expected, "line \(row.line)")
        default:
            Issue.record("line \(row.line): no such kind \(row.kind)")
        }
    }
}
