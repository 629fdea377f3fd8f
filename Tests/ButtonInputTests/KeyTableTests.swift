import ButtonInput
import Testing
import TestSupport

/// The README's table of key names against `KeyCode.names`, which the config file reads: a name
/// the README teaches is one the daemon takes, with the same code, in the same order.
@Suite("The README's key table against the code", .timeLimit(.minutes(5)))
struct KeyTableTests {
    /// The rows of the table whose header is `| name | code | sent by |`.
    static func readmeRows() throws -> [(name: String, code: String)] {
        let readme = try TestData.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| name | code | sent by |"), "no key table in README.md")
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|").map { String($0).trimmed(of: " `") }
            return (cells[0], cells[1])
        }
    }

    @Test func everyNameTheReadmeTeachesIsTheCodesAndNoOther() throws {
        let rows = try Self.readmeRows()
        #expect(rows.map(\.name) == KeyCode.names.map(\.name))
        #expect(rows.map(\.code) == KeyCode.names.map { String($0.code) })
        for row in rows { #expect(KeyCode.code(row.name).map(String.init) == row.code, "\(row.name)") }
    }

    @Test func namesReadInAnyCaseAndCodesUpToTheKernelsLast() {
        #expect(KeyCode.code("key_playpause") == 164)
        #expect(KeyCode.code("767") == 767)
        #expect(KeyCode.code("768") == nil)
        #expect(KeyCode.code("KEY_NOSUCH") == nil)
        #expect(KeyCode.name(164) == "KEY_PLAYPAUSE")
        #expect(KeyCode.name(30) == "30")
    }
}

private extension String {
    /// Without the characters of `set` at either end.
    func trimmed(of set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
