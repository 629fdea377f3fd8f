import ControlProtocol
import Core
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

/// `Package.swift` read as text: each target, its kind, where its sources are, and what it
/// depends on. Enough of the manifest's grammar for this package: `.target(name: "X",
/// dependencies: ["A", "B"], path: "…")` and its kin, the fuzz executable appended at the end.
struct PackageManifest {
    struct Target {
        var name: String
        var kind: String
        var dependencies: [String]
        var path: String

        /// A C library's module (`CSQLite`) or a target of C wrappers (`CMicroHTTPD`).
        var isCLibrary: Bool {
            kind == "systemLibrary" || (name.count > 1 && name.first == "C" && name.dropFirst().first!.isUppercase)
        }
    }

    var targets: [String: Target] = [:]

    init() throws {
        let text = try TestData.text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let nsText = text as NSString
        let matches = pattern.matches(in: text, range: NSRange(location: 0, length: nsText.length))
        for (index, match) in matches.enumerated() {
            let kind = nsText.substring(with: match.range(at: 1))
            let name = nsText.substring(with: match.range(at: 2))
            let end = index + 1 < matches.count ? matches[index + 1].range.location : nsText.length
            let body = nsText.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            var dependencies: [String] = []
            if let list = body.range(of: #"dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
                dependencies = body[list].split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            var path = (kind == "testTarget" ? "Tests/" : "Sources/") + name
            if let given = body.range(of: #"path:\s*"[^"]+""#, options: .regularExpression) {
                path = String(body[given].split(separator: "\"")[1])
            }
            targets[name] = Target(name: name, kind: kind, dependencies: dependencies, path: path)
        }
    }

    /// The modules the Swift files of `target` import.
    func imports(of target: Target) throws -> Set<String> {
        let directory = TestData.packageRoot.appendingPathComponent(target.path)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var modules: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                if let at = words.firstIndex(of: "import"), at + 1 < words.count, words[..<at].allSatisfy({ $0.hasPrefix("@") }) {
                    modules.insert(String(words[at + 1]))
                }
            }
        }
        return modules
    }
}

extension ArchitectureDocumentTests {
    /// The layers of the diagram under "The targets", top first: each the targets named on its
    /// lines (a C module in parentheses belongs to the layer of the target it follows).
    static func layers() throws -> [(name: String, targets: Set<String>)] {
        let text = try TestData.text("ARCHITECTURE.md")
        let section = try #require(text.components(separatedBy: "\n## The targets\n").dropFirst().first)
        let diagram = try #require(section.components(separatedBy: "```").dropFirst().first)
        var layers: [(name: String, targets: Set<String>)] = []
        for line in diagram.split(separator: "\n") {
            let label = line.prefix(11).trimmingCharacters(in: .whitespaces)
            if !label.isEmpty { layers.append((label, [])) }
            let names = line.dropFirst(11).split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }).map(String.init)
            layers[layers.count - 1].targets.formUnion(names)
        }
        return layers
    }

    @Test("the diagram places every target of Package.swift in one layer, and each dependency points to its own layer or one below")
    func diagram() throws {
        let manifest = try PackageManifest()
        let layers = try Self.layers()
        #expect(layers.map(\.name) == ["programs", "hub", "edges", "core", "wire", "pure"])
        // Tests and their helpers are outside the picture; the fuzzing program is named in it.
        let pictured = manifest.targets.values.filter { $0.kind != "testTarget" && $0.name != "TestSupport" }
        func layer(of name: String) -> Int? { layers.firstIndex { $0.targets.contains(name) } }
        for target in pictured {
            #expect(layers.filter { $0.targets.contains(target.name) }.count == 1, "\(target.name) is in \(layers.filter { $0.targets.contains(target.name) }.count) layers")
            guard let own = layer(of: target.name) else { continue }
            for dependency in target.dependencies {
                let theirs = try #require(layer(of: dependency), "\(target.name) depends on \(dependency), which the diagram leaves out")
                #expect(theirs >= own, "\(target.name) (\(layers[own].name)) depends on \(dependency), a layer above (\(layers[theirs].name))")
            }
        }
        #expect(layer(of: "waypoint-fuzz") == 0)
    }

    @Test("the lowest three layers import no Foundation and no SystemSupport or C library; Core depends on none of them, however far down")
    func pureLayers() throws {
        let manifest = try PackageManifest()
        let layers = try Self.layers()
        let cModules = Set(manifest.targets.values.filter(\.isCLibrary).map(\.name))
        let forbidden: Set<String> = cModules.union(["Foundation", "FoundationEssentials", "SystemSupport", "Dispatch"])
        for layer in layers.suffix(3) {
            for name in layer.targets where manifest.targets[name] != nil {
                let imported = try manifest.imports(of: manifest.targets[name]!)
                #expect(imported.isDisjoint(with: forbidden), "\(name) (\(layer.name)) imports \(imported.intersection(forbidden).sorted())")
            }
        }
        var closure: Set<String> = []
        var queue = ["Core"]
        while let next = queue.popLast() {
            for dependency in manifest.targets[next]?.dependencies ?? [] where closure.insert(dependency).inserted { queue.append(dependency) }
        }
        #expect(closure.isDisjoint(with: forbidden), "Core reaches \(closure.intersection(forbidden).sorted())")
    }

    @Test("every target's files import only targets it depends on, and the targets table has a row for each")
    func importsDeclared() throws {
        let manifest = try PackageManifest()
        let rows = Set(try Self.firstColumn(under: "The targets"))
        for target in manifest.targets.values where target.kind != "systemLibrary" {
            let imported = try manifest.imports(of: target).filter { manifest.targets[$0] != nil && $0 != target.name }
            let undeclared = imported.subtracting(target.dependencies)
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without depending on them")
            if target.kind == "target" && !target.isCLibrary {
                #expect(rows.contains(target.name), "no row for \(target.name) in the targets table")
            }
        }
    }
}

extension ArchitectureDocumentTests {
    @Test("test targets mirror source targets: each is named after the target it tests (the package's install and the fuzz corpus aside)")
    func testTargetsMirror() throws {
        let manifest = try PackageManifest()
        let sources = Set(manifest.targets.values.filter { $0.kind != "testTarget" }.map { $0.name.lowercased() })
        for target in manifest.targets.values where target.kind == "testTarget" && !["InstallTests", "FuzzCorpusTests"].contains(target.name) {
            #expect(target.name.hasSuffix("Tests") && sources.contains(String(target.name.dropLast(5)).lowercased()), "\(target.name)")
        }
    }
}
