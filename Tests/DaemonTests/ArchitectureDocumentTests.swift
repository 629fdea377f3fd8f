import ControlProtocol
import Core
import Daemon
import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md describes the code as it is: its request table names every command of the
/// protocol and no other, its state-file table every file the store keeps.
@Suite("ARCHITECTURE.md against the code", .timeLimit(.minutes(5)))
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

/// Swift source read as far as declarations go: string literals and comments skipped, so that
/// braces in them (JSON in a test) do not count.
struct SwiftDeclarations {
    /// A type or an extension, with where its body is.
    struct Scope {
        var kind: String
        var name: String
        var attributes: String
        var body: Range<Int>
    }

    var scopes: [Scope] = []
    /// Where each `@Test` attribute starts, and its text up to the function.
    var tests: [(offset: Int, attribute: String)] = []

    init(_ source: String) {
        let text = Array(source.utf8)
        var code = text  // the text with strings and comments blanked
        var index = 0
        func blank(_ range: Range<Int>) { for i in range where code[i] != UInt8(ascii: "\n") { code[i] = UInt8(ascii: " ") } }
        func starts(_ literal: String, at position: Int) -> Bool {
            let bytes = Array(literal.utf8)
            return position + bytes.count <= text.count && Array(text[position..<position + bytes.count]) == bytes
        }
        while index < text.count {
            if starts("//", at: index) {
                let end = text[index...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
                blank(index..<end)
                index = end
            } else if starts("/*", at: index) {
                var end = index + 2
                while end < text.count && !starts("*/", at: end) { end += 1 }
                blank(index..<min(end + 2, text.count))
                index = end + 2
            } else if text[index] == UInt8(ascii: "#") || text[index] == UInt8(ascii: "\"") {
                var hashes = 0
                var start = index
                while start < text.count && text[start] == UInt8(ascii: "#") { hashes += 1; start += 1 }
                guard start < text.count, text[start] == UInt8(ascii: "\"") else { index += 1; continue }
                // A multi-line literal's opening delimiter ends its line (`#""""#` is a raw "").
                let multiline = starts("\"\"\"\n", at: start)
                let close = Array(((multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)).utf8)
                var end = start + (multiline ? 3 : 1)
                while end < text.count {
                    if hashes == 0 && text[end] == UInt8(ascii: "\\") { end += 2; continue }
                    if end + close.count <= text.count && Array(text[end..<end + close.count]) == close { break }
                    end += 1
                }
                blank(index..<min(end + close.count, text.count))
                index = end + close.count
            } else {
                index += 1
            }
        }
        let blanked = String(decoding: code, as: UTF8.self)
        // Declarations: attributes, then the keyword and the name, then the body's brace.
        let declaration = try! NSRegularExpression(
            pattern: #"((?:@\w+(?:\([^{}]*?\))?\s*)*)(?:(?:final|private|fileprivate|public|package)\s+)*(struct|class|enum|actor|extension)\s+([\w.]+)[^{]*\{"#)
        let nsText = blanked as NSString
        for match in declaration.matches(in: blanked, range: NSRange(location: 0, length: nsText.length)) {
            let open = match.range.location + match.range.length - 1
            var depth = 0
            var close = open
            for position in open..<code.count {
                if code[position] == UInt8(ascii: "{") { depth += 1 }
                if code[position] == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { close = position; break }
                }
            }
            scopes.append(
                Scope(
                    kind: nsText.substring(with: match.range(at: 2)), name: nsText.substring(with: match.range(at: 3)),
                    attributes: String(decoding: text[match.range(at: 1).location..<match.range(at: 1).location + match.range(at: 1).length], as: UTF8.self),
                    body: open..<close))
        }
        let test = try! NSRegularExpression(pattern: #"@Test\b"#)
        for match in test.matches(in: blanked, range: NSRange(location: 0, length: nsText.length)) {
            let end = blanked.utf8.index(blanked.utf8.startIndex, offsetBy: match.range.location)
            let rest = source.utf8[end...].prefix(4000)
            let attribute = String(decoding: rest.prefix { $0 != UInt8(ascii: "{") }, as: UTF8.self)
            tests.append((match.range.location, attribute))
        }
    }

    /// The scopes around `offset`, innermost first.
    func enclosing(_ offset: Int) -> [Scope] {
        scopes.filter { $0.body.contains(offset) }.sorted { $0.body.count < $1.body.count }
    }
}

extension ArchitectureDocumentTests {
    @Test("every test has a time limit: its own, or its suite's (a suite extended in another file counts), so a hang fails with its name")
    func everyTestHasATimeLimit() throws {
        let root = TestData.packageRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" } ?? []
        var parsed: [(URL, SwiftDeclarations)] = []
        var limitedTypes: Set<String> = []
        for file in files {
            let declarations = SwiftDeclarations(try String(contentsOf: file, encoding: .utf8))
            parsed.append((file, declarations))
            for scope in declarations.scopes where scope.kind != "extension" && scope.attributes.contains(".timeLimit(") {
                limitedTypes.insert(scope.name)
            }
        }
        var tests = 0
        for (file, declarations) in parsed {
            for test in declarations.tests {
                tests += 1
                let scopes = declarations.enclosing(test.offset)
                let limited = test.attribute.contains(".timeLimit(")
                    || scopes.contains { limitedTypes.contains($0.name) || $0.attributes.contains(".timeLimit(") }
                #expect(limited, "\(file.lastPathComponent): \(test.attribute.prefix(100)) has no time limit")
            }
        }
        #expect(tests > 500, "only \(tests) tests found: the reading is broken")
    }
}
