import Foundation
import TestSupport
import Testing

/// `make install` and the systemd units: the installed file list against the Makefile's list and
/// the README's, the units linted by systemd's own tools, the exposure score gated at 1.5.
///
/// The install tests use `make install-files BIN=<debug build>`: exactly what `make install`
/// does after its static release build, without the many minutes that build takes.
@Suite("make install and the systemd units", .timeLimit(.minutes(10)))
struct InstallTests {
    static let root = TestData.packageRoot
    /// The highest `systemd-analyze security` exposure we accept (issue 8).
    static let maximumExposure = 1.5

    /// A fresh empty directory, removed by the caller.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `make -s -C <package root> ARGUMENTS`, which must succeed.
    static func make(_ arguments: [String]) throws -> ExternalTool.Output {
        let make = try ExternalTool.find("make", hint: "apt-get install make")
        let output = try ExternalTool.run(make, ["-s", "-C", root.path] + arguments)
        #expect(output.status == 0, "make \(arguments.joined(separator: " ")): \(output.standardError)")
        return output
    }

    /// The directory holding the built programs; the test is skipped when they are not built.
    static func builtPrograms() throws -> URL {
        let waypointd = try ExternalTool.built("waypointd")
        _ = try ExternalTool.built("waypointctl")
        _ = try ExternalTool.built("waypoint-web")
        return waypointd.deletingLastPathComponent()
    }

    /// Every regular file below `directory`, as absolute paths with `directory` standing for `/`.
    static func files(below directory: URL) -> Set<String> {
        let base = directory.resolvingSymlinksInPath().path
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.insert("/" + relative)
            }
        }
        return found
    }

    /// The list in the README's "Installed files" block (the lines of the code block after the
    /// `<!-- install-files -->` marker).
    static func readmeList() throws -> [String] {
        let lines = try TestData.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        guard let marker = lines.firstIndex(of: "<!-- install-files -->") else {
            Issue.record("README.md has no <!-- install-files --> marker before the installed-files block")
            return []
        }
        let open = try #require(lines[(marker + 1)...].firstIndex { $0.hasPrefix("```") })
        let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
        return lines[(open + 1)..<close].map { $0.split(separator: " ").first.map(String.init) ?? "" }
    }

    @Test("install-files puts exactly the Makefile's list, which the README documents, and uninstall takes it back")
    func installedList() throws {
        let programs = try Self.builtPrograms()
        let stage = try Self.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: stage) }
        let listed = try Self.make(["print-install-files"])
        let expected = listed.standardOutput.split(separator: "\n").map(String.init)
        #expect(expected.count == 30)
        #expect(try Self.readmeList() == expected)

        _ = try Self.make(["install-files", "DESTDIR=\(stage.path)", "BIN=\(programs.path)"])
        #expect(Self.files(below: stage) == Set(expected))

        for program in ["waypointd", "waypointctl", "waypoint-web"] {
            let installed = stage.appendingPathComponent("usr/local/bin/\(program)")
            let version = try ExternalTool.run(installed, ["--version"])
            #expect(version.status == 0)
            #expect(version.standardOutput.hasPrefix("\(program) "), "\(version.standardOutput)")
        }
        let service = try String(
            contentsOf: stage.appendingPathComponent("usr/local/lib/systemd/system/waypointd.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/local/bin/waypointd --config /etc/waypointd/waypointd.conf\n"))
        // The companion finds its page beside itself: ../share/waypoint-web.
        let web = try ExternalTool.run(
            stage.appendingPathComponent("usr/local/bin/waypoint-web"), ["--listen", "127.0.0.1:65536"])
        #expect(web.status == 64 && web.standardError.contains("not a port"), "\(web.standardError)")

        _ = try Self.make(["uninstall", "DESTDIR=\(stage.path)"])
        #expect(Self.files(below: stage).isEmpty, "\(Self.files(below: stage))")
    }

    @Test("PREFIX=/usr rewrites the units' paths; an edited config is neither overwritten nor uninstalled")
    func prefixAndConfig() throws {
        let programs = try Self.builtPrograms()
        let stage = try Self.temporaryDirectory("install-usr")
        defer { try? FileManager.default.removeItem(at: stage) }
        let config = stage.appendingPathComponent("etc/waypointd/waypointd.conf")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "zone-degrees 25\n".write(to: config, atomically: true, encoding: .utf8)

        _ = try Self.make(["install-files", "DESTDIR=\(stage.path)", "BIN=\(programs.path)", "PREFIX=/usr"])
        let units = stage.appendingPathComponent("usr/lib/systemd/system")
        let service = try String(contentsOf: units.appendingPathComponent("waypointd.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/bin/waypointd --config /etc/waypointd/waypointd.conf\n"))
        #expect(service.contains("\nExecStopPost=-/usr/bin/waypointd motor-off --config /etc/waypointd/waypointd.conf\n"))
        #expect(service.contains("\nDocumentation=file:/usr/share/doc/waypointd/README.md\n"))
        #expect(!service.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("/usr/local") })
        #expect(
            FileManager.default.fileExists(
                atPath: stage.appendingPathComponent("usr/lib/sysusers.d/waypointd.conf").path))
        #expect(try String(contentsOf: config, encoding: .utf8) == "zone-degrees 25\n")

        let uninstalled = try Self.make(["uninstall", "DESTDIR=\(stage.path)", "PREFIX=/usr"])
        #expect(uninstalled.standardOutput.contains("keeping the edited"))
        #expect(Self.files(below: stage) == ["/etc/waypointd/waypointd.conf"])
    }

    @Test("systemd-analyze verify passes on both units with the binary staged under a root")
    func verify() throws {
        let programs = try Self.builtPrograms()
        let analyze = try ExternalTool.find("systemd-analyze", hint: "apt-get install systemd (scripts/deps.sh)")
        let copy = try ExternalTool.find("cp", hint: "coreutils")
        let stage = try Self.temporaryDirectory("verify")
        defer { try? FileManager.default.removeItem(at: stage) }
        _ = try Self.make(["install-files", "DESTDIR=\(stage.path)", "BIN=\(programs.path)"])
        // verify --root resolves every unit inside the root, down to sysinit.target: the system's
        // own units must be there too (reference/deploy.md §3.6). Debian 12 has /lib -> usr/lib.
        let systemUnits = stage.appendingPathComponent("usr/lib/systemd")
        try FileManager.default.createDirectory(at: systemUnits, withIntermediateDirectories: true)
        let copied = try ExternalTool.run(copy, ["-a", "/usr/lib/systemd/system", systemUnits.path])
        try #require(copied.status == 0, "\(copied.standardError)")
        try FileManager.default.createSymbolicLink(
            atPath: stage.appendingPathComponent("lib").path, withDestinationPath: "usr/lib")

        let arguments = [
            "verify", "--man=no", "--recursive-errors=yes", "--root=\(stage.path)", "waypointd.socket",
            "waypointd.service", "waypoint-web.service",
        ]
        let result = try ExternalTool.run(analyze, arguments)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.isEmpty && result.standardOutput.isEmpty,
            "\(result.standardError)\(result.standardOutput)")

        // The same check catches a misspelt directive: it is not a test that cannot fail.
        let service = stage.appendingPathComponent("usr/local/lib/systemd/system/waypointd.service")
        let text = try String(contentsOf: service, encoding: .utf8)
        try text.replacingOccurrences(of: "\nProtectHome=yes\n", with: "\nProtectHom=yes\n").write(
            to: service, atomically: true, encoding: .utf8)
        let broken = try ExternalTool.run(analyze, arguments)
        #expect(broken.status != 0)
        #expect(broken.standardError.contains("Unknown key 'ProtectHom'"), "\(broken.standardError)")
    }

    @Test("systemd-analyze security --offline=true passes: exposure at most 1.5 for the daemon, 2.0 for the companion")
    func security() throws {
        let analyze = try ExternalTool.find("systemd-analyze", hint: "apt-get install systemd (scripts/deps.sh)")
        for (name, maximum) in [("waypointd.service", Self.maximumExposure), ("waypoint-web.service", 2.0)] {
            let unit = Self.root.appendingPathComponent("systemd/\(name)").path
            let threshold = Int(maximum * 10)
            let result = try ExternalTool.run(
                analyze, ["security", "--offline=true", "--threshold=\(threshold)", "--no-pager", unit])
            #expect(result.status == 0, "\(name): \(result.standardOutput.suffix(400))\(result.standardError)")
            let line = try #require(
                (result.standardOutput + result.standardError).split(separator: "\n").first {
                    $0.contains("Overall exposure level for \(name):")
                })
            let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
            #expect(score <= maximum, "\(line)")
        }
    }

    @Test("the companion's sysusers file makes waypoint-web, a member of waypoint (the control socket's group)")
    func companionUser() throws {
        let sysusers = try ExternalTool.find("systemd-sysusers", hint: "apt-get install systemd (scripts/deps.sh)")
        let target = try Self.temporaryDirectory("sysusers-web")
        defer { try? FileManager.default.removeItem(at: target) }
        try FileManager.default.createDirectory(at: target.appendingPathComponent("etc"), withIntermediateDirectories: true)
        // Either order: the package runs both, and the companion's alone must still work.
        let file = Self.root.appendingPathComponent("systemd/waypoint-web.sysusers").path
        let result = try ExternalTool.run(sysusers, ["--root=\(target.path)", file])
        #expect(result.status == 0, "\(result.standardError)")
        let passwd = try String(contentsOf: target.appendingPathComponent("etc/passwd"), encoding: .utf8)
        let group = try String(contentsOf: target.appendingPathComponent("etc/group"), encoding: .utf8)
        #expect(passwd.split(separator: "\n").contains { $0.hasPrefix("waypoint-web:x:") && $0.hasSuffix(":/usr/sbin/nologin") })
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("waypoint:x:") && $0.hasSuffix(":waypoint-web") }, "\(group)")
        let unit = try TestData.text("systemd/waypoint-web.service")
        #expect(unit.contains("\nUser=waypoint-web\n") && unit.contains("\nSupplementaryGroups=waypoint\n"))
        #expect(unit.contains("\nStateDirectory=waypoint-web\n") && unit.contains(" --config /etc/waypointd/waypoint-web.conf\n"))
    }

    @Test("the sysusers file creates the user waypoint in the groups i2c and gpio")
    func sysusers() throws {
        let sysusers = try ExternalTool.find("systemd-sysusers", hint: "apt-get install systemd (scripts/deps.sh)")
        let target = try Self.temporaryDirectory("sysusers")
        defer { try? FileManager.default.removeItem(at: target) }
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("etc"), withIntermediateDirectories: true)
        let file = Self.root.appendingPathComponent("systemd/waypointd.sysusers").path
        let result = try ExternalTool.run(sysusers, ["--root=\(target.path)", file])
        #expect(result.status == 0, "\(result.standardError)")
        let passwd = try String(contentsOf: target.appendingPathComponent("etc/passwd"), encoding: .utf8)
        let group = try String(contentsOf: target.appendingPathComponent("etc/group"), encoding: .utf8)
        #expect(
            passwd.split(separator: "\n").contains { $0.hasPrefix("waypoint:x:") && $0.hasSuffix(":/usr/sbin/nologin") }
        )
        for name in ["i2c", "gpio"] {
            #expect(
                group.split(separator: "\n").contains { $0.hasPrefix("\(name):x:") && $0.hasSuffix(":waypoint") },
                "\(group)")
        }
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("waypoint:x:") })
    }

    @Test("the units agree with the daemon's defaults: socket path, state and config directories")
    func unitsMatchDefaults() throws {
        let waypointd = try ExternalTool.built("waypointd")
        // An empty config file: every key at its default. (Not /dev/null: only a regular file is
        // read as a config, so that a FIFO or a device cannot hang or flood the daemon.)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).conf")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let printed = try ExternalTool.run(waypointd, ["--print-config", "--config", empty.path])
        #expect(printed.status == 0, "\(printed.standardError)")
        let socket = try TestData.text("systemd/waypointd.socket")
        let service = try TestData.text("systemd/waypointd.service")
        #expect(printed.standardOutput.contains("\nsocket /run/waypointd/control.sock\n"))
        #expect(socket.contains("\nListenStream=/run/waypointd/control.sock\n"))
        #expect(printed.standardOutput.contains("\nstate-dir /var/lib/waypointd\n"))
        #expect(service.contains("\nStateDirectory=waypointd\n"))
        #expect(service.contains("\nConfigurationDirectory=waypointd\n"))
        #expect(service.contains(" --config /etc/waypointd/waypointd.conf\n"))
        // RuntimeDirectory= on the service would delete the socket whenever the service stops.
        #expect(!service.split(separator: "\n").contains { $0.hasPrefix("RuntimeDirectory=") })
    }
}
