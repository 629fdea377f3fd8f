import Foundation
import Testing
import TestSupport

/// The built `waypointctl` binary, fed whole reference files through its batch modes.
@Suite("waypointctl batch modes against the reference data", .timeLimit(.minutes(5)))
struct BatchTests {
    @Test("bearing --batch reproduces every GeodSolve row to 1e-9° and 1e-6 m")
    func bearingBatch() throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let rows = try TestData.table("Tests/GeodesyTests/Data/geodesic_inverse.tsv")
        let input = rows.map { $0.fields[0..<4].joined(separator: " ") }.joined(separator: "\n") + "\n"
        let output = try ExternalTool.run(waypointctl, ["bearing", "--batch"], input: input)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty)
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        try #require(lines.count == rows.count)
        for (row, line) in zip(rows, lines) {
            let fields = line.split(separator: " ").map { Double($0) }
            try #require(fields.count == 3 && fields.allSatisfy { $0 != nil }, "line '\(line)' for \(row)")
            #expect(abs(fields[2]! - row.number(6)) <= 1e-6, "\(row)")
            for (computed, expected) in [(fields[0]!, row.number(4)), (fields[1]!, row.number(5))] {
                let difference = abs((computed - expected).truncatingRemainder(dividingBy: 360))
                #expect(min(difference, 360 - difference) <= 1e-9, "\(row) → \(line)")
            }
        }
    }

    @Test("a # comment line passes through as it is, keeping the output aligned (issue 18, item 6)")
    func comments() throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let input = "# from to\n48.8584 2.2945 48.8530 2.3499\n  # indented\n"
        let output = try ExternalTool.run(waypointctl, ["bearing", "--batch"], input: input)
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "# from to" && lines.last == "  # indented")
        // GeodSolve -i: 98.38174987 98.42346911 4109.528.
        #expect(lines[1].hasPrefix("98.3817498"), "\(lines)")
    }

    @Test("declination --batch reproduces NOAA's 100 WMM2025 test values")
    func declinationBatch() throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let rows = try TestData.numericRows("Tests/GeomagnetismTests/Data/WMM2025_TestValues.txt")
        try #require(rows.count == 100)
        let input = rows.map { $0[0..<4].map { "\($0)" }.joined(separator: " ") }.joined(separator: "\n") + "\n"
        let output = try ExternalTool.run(waypointctl, ["declination", "--batch"], input: input)
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        try #require(lines.count == rows.count)
        // Columns: D I (degrees, printed to 0.01) then H X Y Z F (nT, printed to 1e-6).
        let tolerances = [0.005 + 1e-9, 0.005 + 1e-9, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3]
        for (row, line) in zip(rows, lines) {
            let values = line.split(separator: " ").compactMap { Double($0) }
            try #require(values.count == 7, "line '\(line)'")
            for column in 0..<7 {
                #expect(abs(values[column] - row[4 + column]) <= tolerances[column], "column \(column) of \(row)")
            }
        }
    }

    @Test("a bad line gets nans, an error naming its line number, and exit status 1; the rest still convert")
    func badLines() throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let input = "48 2 48.001 2.001\nnot numbers\n91 0 0 0\n1 2 3 nan\n\n10 20 30\n0 0 0 1\n"
        let output = try ExternalTool.run(waypointctl, ["bearing", "--batch"], input: input)
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 7)
        #expect(lines[1...5].allSatisfy { $0 == "nan nan nan" })
        #expect(lines[0].split(separator: " ").compactMap { Double($0) }.count == 3)
        // One degree of longitude on the equator: 111 319.491 m.
        #expect(abs((Double(lines[6].split(separator: " ")[2]) ?? 0) - 111_319.490_793) < 1e-3)
        let errors = output.standardError.split(separator: "\n")
        #expect(errors.count == 5)
        #expect(errors[0].contains("line 2:") && errors[0].contains("expected 4 numbers"))
        #expect(errors[1].contains("line 3:") && errors[1].contains("lat1 '91' is out of range"))
        #expect(errors[2].contains("line 4:") && errors[2].contains("lon2 'nan' is not a finite decimal number"))
        #expect(errors[3].contains("line 5:") && errors[3].contains("empty line"))
        #expect(errors[4].contains("line 6:") && errors[4].contains("got 3"))

        let declination = try ExternalTool.run(
            waypointctl, ["declination", "--batch"], input: "2026.5 0 48.85 2.29\n2026.5 0 95 0\n2026.5 x 0 0\n")
        #expect(declination.status == 1)
        #expect(declination.standardOutput.split(separator: "\n").dropFirst().allSatisfy { $0 == "nan nan nan nan nan nan nan" })
        #expect(declination.standardError.contains("line 2: lat '95' is out of range"))
        #expect(declination.standardError.contains("line 3: height_km 'x' is not a finite decimal number"))
    }
}
