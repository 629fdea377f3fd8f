import Geomagnetism
import TestSupport

/// A NOAA `.COF` coefficient file parsed independently of the generator script, so the tests
/// can check the compiled-in table against the file it claims to come from.
struct CoefficientFile {
    /// The header line as written.
    var header: String
    /// Epoch, decimal year (first header field).
    var epochYear: Double
    /// Model name (second header field), for example `WMM-2025`.
    var modelName: String
    /// Release date (third header field).
    var releaseDate: String
    /// The coefficient lines before the terminating line of 9s.
    var coefficients: [GaussCoefficient]

    /// A parse failure with its 1-based line number.
    struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Parses the text of a coefficient file.
    init(text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { throw ParseError(line: 1, message: "empty file") }
        header = String(first)
        let headerFields = first.split(separator: " ")
        guard headerFields.count == 3, let epoch = Double(headerFields[0]) else {
            throw ParseError(line: 1, message: "bad header")
        }
        epochYear = epoch
        modelName = String(headerFields[1])
        releaseDate = String(headerFields[2])
        coefficients = []
        for (offset, line) in lines.dropFirst().enumerated() {
            if line.allSatisfy({ $0 == "9" }) && !line.isEmpty { return }
            let fields = line.split(separator: " ")
            guard fields.count == 6, let n = Int(fields[0]), let m = Int(fields[1]),
                let g = Double(fields[2]), let h = Double(fields[3]),
                let gRate = Double(fields[4]), let hRate = Double(fields[5])
            else { throw ParseError(line: offset + 2, message: "bad coefficient line") }
            coefficients.append(
                GaussCoefficient(
                    degree: n, order: m, gNanotesla: g, hNanotesla: h,
                    gRateNanoteslaPerYear: gRate, hRateNanoteslaPerYear: hRate))
        }
        throw ParseError(line: lines.count, message: "no terminating line of 9s")
    }

    /// The WMM2025 file in `Data/`.
    static func wmm2025() throws -> CoefficientFile {
        try CoefficientFile(text: TestData.text("Tests/GeomagnetismTests/Data/WMM2025.COF"))
    }
}
