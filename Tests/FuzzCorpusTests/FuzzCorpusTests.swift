import Foundation
import FuzzTargets
import TestSupport
import Testing

/// Every input kept in `Fuzz/corpus` (the seeds, and each finding turned into a regression
/// input) through its fuzz target's property, without the fuzzer: `make test` checks in seconds
/// what `make fuzz` found or started from. A violated property traps, failing the run.
@Suite("The fuzz corpus, replayed", .timeLimit(.minutes(5)))
struct FuzzCorpusTests {
    @Test("each target's kept inputs hold its property", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) throws {
        let directory = TestData.packageRoot.appendingPathComponent("Fuzz/corpus/\(target.rawValue)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty, "no inputs kept for \(target.rawValue)")
        for name in names {
            target.run(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }
}
