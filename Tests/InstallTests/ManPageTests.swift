import Foundation
import Testing
import TestSupport

/// The man pages (issue 20): `make man` builds them and mandoc finds no warning; `man -l`
/// renders each; every config key the parser knows and every command the programs take is in
/// them, so they cannot fall behind the code.
@Suite("Man pages", .timeLimit(.minutes(10)))
struct ManPageTests {
    static var built: URL { InstallTests.root.appendingPathComponent(".build/man") }

    static func page(_ path: String) throws -> String {
        try String(contentsOf: built.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("make man lints clean; man -l renders each page with its name and sections")
    func render() throws {
        _ = try InstallTests.make(["man"])
        let man = try ExternalTool.find("man", hint: "apt-get install man-db")
        for (path, name) in [
            ("man1/waypointctl.1", "WAYPOINTCTL(1)"), ("man5/waypointd.conf.5", "WAYPOINTD.CONF(5)"), ("man8/waypointd.8", "WAYPOINTD(8)"),
        ] {
            let rendered = try ExternalTool.run(man, ["-l", "-P", "cat", Self.built.appendingPathComponent(path).path])
            #expect(rendered.status == 0, "\(path): \(rendered.standardError)")
            #expect(rendered.standardOutput.contains(name), "\(path)")
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "FILES", "SEE ALSO"] {
                #expect(rendered.standardOutput.contains(section), "\(path) lacks \(section)")
            }
        }
    }

    @Test("every key of waypointd --print-config is in waypointd.conf(5), with its default")
    func everyKey() throws {
        _ = try InstallTests.make(["man"])
        let waypointd = try ExternalTool.built("waypointd")
        let printed = try ExternalTool.run(waypointd, ["--print-config"])
        let settings = printed.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(settings.count >= 30, "\(settings.count) keys")
        let page = try Self.page("man5/waypointd.conf.5")
        for setting in settings {
            let key = setting.split(separator: " ", maxSplits: 1)[0]
            let value = setting.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            #expect(page.contains("\n.It Cm \(key) Ar \(value)\n"), "waypointd.conf(5) lacks \(setting)")
        }
    }

    @Test("every waypointctl command of its --help, and every waypointd command, is in its page")
    func everyCommand() throws {
        _ = try InstallTests.make(["man"])
        let waypointctl = try ExternalTool.built("waypointctl")
        let help = try ExternalTool.run(waypointctl, ["--help"]).standardOutput
        // The overview's command lines: two spaces, then the command word.
        let commands = Set(
            help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap {
                $0.split(separator: " ").first.map(String.init)
            })
        #expect(commands.isSuperset(of: ["go", "route", "place", "track", "back", "bearing", "declination", "calibrate", "locate"]), "\(commands)")
        let page = try Self.page("man1/waypointctl.1")
        for command in commands {
            #expect(page.contains(".It Cm \(command)"), "waypointctl(1) lacks \(command)")
        }
        let daemonPage = try Self.page("man8/waypointd.8")
        for command in ["check", "gps", "replay", "motor-test", "motor-off"] {
            #expect(daemonPage.contains(".It Cm \(command)"), "waypointd(8) lacks \(command)")
        }
    }

    /// A synopsis line as both sides are compared (issue 30, item 13): lower case (the help's
    /// placeholders are upper case, the page's italic), single spaces, none around `|`.
    static func normalized(_ line: some StringProtocol) -> String {
        line.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: " | ", with: "|")
    }

    /// The usage lines of a `--help`: the line after `usage:` and those that follow it starting
    /// with the program's name, without it; `go NAME | go --place NAME` counts as two.
    static func usages(_ help: String, program: String) -> [String] {
        var usages: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let text = trimmed.hasPrefix("usage: ") ? String(trimmed.dropFirst("usage: ".count)) : trimmed
            guard text.hasPrefix(program + " "), trimmed.hasPrefix("usage: ") || !usages.isEmpty else {
                if !usages.isEmpty { break }
                continue
            }
            let words = String(text.dropFirst(program.count + 1))
            let command = words.split(separator: " ").first.map(String.init) ?? ""
            usages += words.components(separatedBy: " | \(command) ").enumerated().map { $0.offset == 0 ? $0.element : command + " " + $0.element }
        }
        return usages.map(normalized)
    }

    /// The page as `mandoc -Tascii` renders it, each line normalized.
    static func rendered(_ path: String) throws -> [String] {
        let mandoc = try ExternalTool.find("mandoc", hint: "apt-get install mandoc")
        let output = try ExternalTool.run(mandoc, ["-Tascii", "-Owidth=200", InstallTests.root.appendingPathComponent(path).path])
        #expect(output.status == 0, "\(output.standardError)")
        // Overstrike (bold, underline) as `col -b` would drop it.
        var text = ""
        for character in output.standardOutput {
            if character == "\u{8}" { text.removeLast() } else { text.append(character) }
        }
        return text.split(separator: "\n").map(normalized)
    }

    @Test("each command's --help synopsis is in its man page, word for word", arguments: [
        "go", "clear", "status", "watch", "recent", "place", "route", "back", "track", "mute", "buzz", "calibrate", "bearing",
        "declination", "locate", "search", "where",
    ])
    func waypointctlSynopsis(command: String) throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let page = try Self.rendered("man/waypointctl.1")
        let usages = Self.usages(try ExternalTool.run(waypointctl, [command, "--help"]).standardOutput, program: "waypointctl")
        #expect(!usages.isEmpty)
        for usage in usages {
            // An item of the page: the synopsis, then its text after two spaces or on the next line.
            #expect(page.contains { $0 == usage || $0.hasPrefix(usage + " ") && $0.count > usage.count + 1 }, "waypointctl(1) lacks '\(usage)'")
        }
    }

    @Test("waypointd's commands: each --help synopsis is in waypointd(8)'s SYNOPSIS", arguments: [
        ["check", "--help"], ["gps", "--help"], ["replay", "--help"], ["motor-test", "--help"], ["--help"],
    ])
    func waypointdSynopsis(arguments: [String]) throws {
        let waypointd = try ExternalTool.built("waypointd")
        let page = try Self.rendered("man/waypointd.8")
        let joined = page.joined(separator: " ")
        let help = try ExternalTool.run(waypointd, arguments).standardOutput
        // waypointd --help's usage lines carry a description after many spaces: only the synopsis.
        let usages = help.split(separator: "\n").compactMap { line -> String? in
            // `usage:` and the indented lines under it; not the prose that names the program.
            guard line.hasPrefix("usage: ") || line.first == " " else { return nil }
            let text = line.trimmingCharacters(in: .whitespaces)
            let synopsis = text.hasPrefix("usage: ") ? String(text.dropFirst(7)) : text
            guard synopsis.hasPrefix("waypointd ") else { return nil }
            return Self.normalized(synopsis.components(separatedBy: "   ").first ?? synopsis)
        }
        #expect(!usages.isEmpty)
        for usage in usages {
            #expect(joined.contains(usage), "waypointd(8) lacks '\(usage)'")
        }
    }
}
