import ControlProtocol
import Daemon
import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md describes the code as it is: its request table names every command of the
/// protocol and no other, its state-file table every file the store keeps.
@Suite("ARCHITECTURE.md against the code")
struct ArchitectureDocumentTests {
    /// The first column of the table under `heading`, without its backquotes.
    static func firstColumn(under heading: String) throws -> [String] {
        let text = try TestData.text("ARCHITECTURE.md")
        let section = try #require(text.components(separatedBy: "\n## \(heading)\n").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        return body.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
            row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
        }
    }

    @Test("the request table lists the protocol's commands, in its order")
    func requests() throws {
        #expect(try Self.firstColumn(under: "Requests") == ControlRequest.commandNames)
    }

    @Test("the state-file table lists every state file the store keeps, and the trail's")
    func stateFiles() throws {
        let listed = try Self.firstColumn(under: "State files")
        #expect(listed == StateFile.allCases.map(\.fileName) + ["\(TrailFiles.fileName), \(TrailFiles.olderFileName)"])
    }
}
