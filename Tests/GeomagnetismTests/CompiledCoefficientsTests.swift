import Foundation
import TestSupport
import Geomagnetism
import Testing

/// The compiled-in WMM2025 table must be the coefficient file, bit for bit.
@Suite("Compiled WMM2025 coefficients", .timeLimit(.minutes(5)))
struct CompiledCoefficientsTests {
    @Test("the compiled table equals WMM2025.COF exactly")
    func tableEqualsFile() throws {
        let file = try CoefficientFile.wmm2025()
        let model = MagneticModel.wmm2025
        #expect(file.header == "    2025.0            WMM-2025        11/13/2024")
        #expect(model.name == file.modelName)
        #expect(model.releaseDate == file.releaseDate)
        #expect(model.epochYear == file.epochYear)
        #expect(model.validFromYear == 2025.0)
        #expect(model.validUntilYear == 2030.0)
        #expect(file.coefficients.count == 90)
        try #require(model.coefficients.count == file.coefficients.count)
        for (compiled, parsed) in zip(model.coefficients, file.coefficients) {
            #expect(compiled.degree == parsed.degree && compiled.order == parsed.order)
            // Bit patterns, so even the sign of a −0.0 in the file must survive.
            #expect(
                compiled.gNanotesla.bitPattern == parsed.gNanotesla.bitPattern
                    && compiled.hNanotesla.bitPattern == parsed.hNanotesla.bitPattern
                    && compiled.gRateNanoteslaPerYear.bitPattern
                        == parsed.gRateNanoteslaPerYear.bitPattern
                    && compiled.hRateNanoteslaPerYear.bitPattern
                        == parsed.hRateNanoteslaPerYear.bitPattern,
                "n=\(parsed.degree) m=\(parsed.order): \(compiled) != \(parsed)")
        }
    }

    @Test("degrees and orders run 1...12 in file order")
    func canonicalOrder() {
        var expected: [(Int, Int)] = []
        for n in 1...MagneticModel.maximumDegree { for m in 0...n { expected.append((n, m)) } }
        let actual = MagneticModel.wmm2025.coefficients.map { ($0.degree, $0.order) }
        #expect(actual.elementsEqual(expected, by: ==))
    }

    @Test(
        "the generated Swift file is what the generator produces",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
    func generatorIsCurrent() throws {
        let output = try ExternalTool.run(
            URL(fileURLWithPath: "/bin/sh"), [TestData.packageRoot.appendingPathComponent("scripts/generate-wmm-coefficients").path, "--check"])
        #expect(output.status == 0, "generator --check failed: \(output.standardError)")
    }
}
