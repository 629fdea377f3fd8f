import Foundation
import Testing
import TestSupport

/// The man pages (issue 20): `make man` builds them and mandoc finds no warning; `man -l`
/// renders each; every config key the parser knows and every command the programs take is in
/// them, so they cannot fall behind the code.
@Suite("Man pages")
struct ManPageTests {
    static var built: URL { InstallTests.root.appendingPathComponent(".build/man") }

    static func page(_ path: String) throws -> String {
        try String(contentsOf: built.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("make man lints clean; man -l renders each page with its name and sections")
    func render() throws {
        guard try InstallTests.make(["man"]) != nil, let man = try ExternalTool.find("man", hint: "apt-get install man-db")
        else { return }
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
        guard try InstallTests.make(["man"]) != nil, let waypointd = try ExternalTool.built("waypointd") else { return }
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
        guard try InstallTests.make(["man"]) != nil, let waypointctl = try ExternalTool.built("waypointctl") else { return }
        let help = try ExternalTool.run(waypointctl, ["--help"]).standardOutput
        // The overview's command lines: two spaces, then the command word.
        let commands = Set(
            help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap {
                $0.split(separator: " ").first.map(String.init)
            })
        #expect(commands.isSuperset(of: ["go", "route", "place", "track", "back", "bearing", "declination", "calibrate"]), "\(commands)")
        let page = try Self.page("man1/waypointctl.1")
        for command in commands {
            #expect(page.contains(".It Cm \(command)"), "waypointctl(1) lacks \(command)")
        }
        let daemonPage = try Self.page("man8/waypointd.8")
        for command in ["check", "gps", "replay", "motor-test", "motor-off"] {
            #expect(daemonPage.contains(".It Cm \(command)"), "waypointd(8) lacks \(command)")
        }
    }
}
