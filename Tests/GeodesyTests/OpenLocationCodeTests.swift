import Geodesy
import Testing
import TestSupport

/// Plus codes against the Open Location Code project's own test data (issue 26): every row of
/// its decoding, encoding, short-code recovery and validity tables, unchanged.
@Suite("Open Location Code: the specification's test data", .timeLimit(.minutes(5)))
struct OpenLocationCodeTests {
    /// The rows of one of the project's CSV files, comments and blank lines skipped.
    static func rows(_ name: String) throws -> [[String]] {
        try TestData.text("Tests/GeodesyTests/Data/open-location-code/\(name).csv")
            .split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("validity: isValid, isShort and isFull for every code of validityTests.csv")
    func validity() throws {
        let rows = try Self.rows("validityTests")
        #expect(rows.count >= 25)
        for row in rows {
            let code = row[0]
            #expect(OpenLocationCode.isValid(code) == (row[1] == "true"), "\(code): valid")
            #expect(OpenLocationCode.isShort(code) == (row[2] == "true"), "\(code): short")
            #expect(OpenLocationCode.isFull(code) == (row[3] == "true"), "\(code): full")
        }
    }

    @Test("decoding: the cell of every code of decoding.csv, to 1e-10°")
    func decoding() throws {
        let rows = try Self.rows("decoding")
        #expect(rows.count > 30)
        for row in rows {
            let area = try #require(OpenLocationCode.decode(row[0]), "\(row[0])")
            #expect(area.length == Int(row[1]), "\(row[0]): length")
            let expected = row[2...5].map { Double($0)! }
            let got = [area.southDegrees, area.westDegrees, area.northDegrees, area.eastDegrees]
            for (a, b) in zip(got, expected) { #expect(abs(a - b) < 1e-10, "\(row[0]): \(got) vs \(expected)") }
        }
    }

    @Test("encoding: every position of encoding.csv to its code (or none)")
    func encoding() throws {
        let rows = try Self.rows("encoding")
        #expect(rows.count > 300)
        for row in rows {
            let code = OpenLocationCode.encode(
                latitudeDegrees: Double(row[0])!, longitudeDegrees: Double(row[1])!, length: Int(row[4])!)
            let expected = row.count > 5 && !row[5].isEmpty ? row[5] : nil
            #expect(code == expected, "\(row[0]), \(row[1]), length \(row[4])")
        }
    }

    @Test("short codes: every recovery of shortCodeTests.csv near its reference")
    func recovery() throws {
        let rows = try Self.rows("shortCodeTests").filter { $0[4] == "R" || $0[4] == "B" }
        #expect(rows.count >= 19)
        for row in rows {
            let recovered = OpenLocationCode.recoverNearest(
                row[3], latitudeDegrees: Double(row[1])!, longitudeDegrees: Double(row[2])!)
            #expect(recovered == row[0], "\(row[3]) near \(row[1]), \(row[2])")
        }
    }

    @Test("a cell's size in metres: 10 digits about 14 m, 11 digits about 3.5 m")
    func size() throws {
        let ten = try #require(OpenLocationCode.decode("8FW4V75V+8Q"))
        #expect(ten.sizeMeters > 13 && ten.sizeMeters < 14.5, "\(ten.sizeMeters)")
        let eleven = try #require(OpenLocationCode.decode("8FW4V75V+8QX"))
        #expect(eleven.sizeMeters > 2.5 && eleven.sizeMeters < 4, "\(eleven.sizeMeters)")
    }
}
