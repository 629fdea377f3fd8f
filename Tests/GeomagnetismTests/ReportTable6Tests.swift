import Geomagnetism
import Testing
import TestSupport

/// Table 6 of the WMM2025 technical report (`WMM2025_TEST_VALUES_report_table6.txt`): 12
/// points with grid variation.
///
/// Columns: date, height (km), lat, lon, X, Y, Z, H, F, I, D, GV, Xdot, Ydot, Zdot, Hdot, Fdot,
/// Idot, Ddot. Intensities are printed to 0.1 nT and angles to 0.01°, so agreement is half a
/// unit of the last digit. GV is NaN where it is not defined (equatorward of 55°).
@Suite("WMM2025 report table 6", .timeLimit(.minutes(5)))
struct ReportTable6Tests {
    /// Half of the printed 0.1 nT (and 0.1 nT/yr), plus float slack.
    static let intensityTolerance = 0.05 + 1e-9
    /// Half of the printed 0.01° (and 0.01°/yr), plus float slack.
    static let angleTolerance = 0.005 + 1e-9

    static let columns = [
        "X", "Y", "Z", "H", "F", "I", "D", "GV", "Xdot", "Ydot", "Zdot", "Hdot", "Fdot", "Idot",
        "Ddot",
    ]

    @Test("all 12 rows agree within the printed precision")
    func allRows() throws {
        let rows = try TestData.numericRows("Tests/GeomagnetismTests/Data/WMM2025_TEST_VALUES_report_table6.txt")
        #expect(rows.count == 12)
        var errors = MaximumErrors()
        for (index, row) in rows.enumerated() {
            try #require(row.count == 19, "row \(index + 1) has \(row.count) fields")
            let field = MagneticModel.wmm2025.field(
                latitudeDegrees: row[2], longitudeDegrees: row[3],
                heightAboveEllipsoidKilometers: row[1], decimalYear: row[0])
            let rates = field.secularVariation
            let expectedGridVariation = row[11]
            if expectedGridVariation.isNaN {
                #expect(field.gridVariationDegrees == nil, "row \(index + 1): GV should be nil")
            } else {
                #expect(field.gridVariationDegrees != nil, "row \(index + 1): GV missing")
            }
            let actual = [
                field.northNanotesla, field.eastNanotesla, field.downNanotesla,
                field.horizontalIntensityNanotesla, field.totalIntensityNanotesla,
                field.inclinationDegrees, field.declinationDegrees,
                field.gridVariationDegrees ?? .nan,
                rates.northNanoteslaPerYear, rates.eastNanoteslaPerYear,
                rates.downNanoteslaPerYear, rates.horizontalIntensityNanoteslaPerYear,
                rates.totalIntensityNanoteslaPerYear, rates.inclinationDegreesPerYear,
                rates.declinationDegreesPerYear,
            ]
            for (offset, column) in Self.columns.enumerated() {
                let expected = row[4 + offset]
                if column == "GV" && expected.isNaN { continue }
                errors.record(column, actual: actual[offset], expected: expected, row: index + 1)
            }
        }
        for column in Self.columns {
            let tolerance =
                ["I", "D", "GV", "Idot", "Ddot"].contains(column)
                ? Self.angleTolerance : Self.intensityTolerance
            let error = errors.error(column)
            let row = errors.row(column)
            #expect(error <= tolerance, "\(column): max error \(error) (row \(row)) > \(tolerance)")
        }
    }
}
