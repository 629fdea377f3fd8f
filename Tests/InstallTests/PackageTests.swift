import ControlProtocol
import Foundation
import TestSupport
import Testing

/// The Debian package (`make deb`, debian/): what it holds against the one install list, its
/// conffile and maintainer scripts, lintian; then its life in a real Debian 12 system made by
/// debootstrap (`scripts/debian-root.sh`, kept between runs) and booted by its own systemd as
/// PID 1 of private namespaces (`scripts/service-under-systemd.sh boot`): install, the units
/// enabled and started, `waypointctl status` through the socket, an upgrade that keeps an edited
/// conffile, `apt-get remove` stopping the service with the motor off, and `purge` taking the
/// state.
///
/// Real tools throughout: dpkg-buildpackage and debhelper build the package, lintian judges it,
/// dpkg and apt install and remove it, systemd runs it. The one change the test forces is the
/// script's drop-in, in place before the install, as in ServiceUnderSystemdTests: no GPS
/// receiver, IMU or PWM chip here, so `--simulate` and a fake sysfs tree.
///
/// Needs root. Missing tools skip locally and fail under CI; a machine that cannot host a private
/// systemd (the script's status 77) skips in both cases, with the reason printed.
@Suite("the Debian package", .timeLimit(.minutes(30)))
struct PackageTests {
    static let root = TestData.packageRoot
    /// The version the upgrade goes to: the same tree, built again under another version.
    static let upgradeVersion = "\(Release.version)+upgrade1"

    /// One package build: its .deb and its .changes (which lintian reads with the .deb).
    struct Package {
        let deb: URL
        let changes: URL
    }

    /// The tools the package tests need; nil (after saying why) to skip.
    static func prerequisites() throws -> (make: URL, lintian: URL, dpkgDeb: URL) {
        let hint = "apt-get install dpkg-dev debhelper lintian debootstrap (scripts/deps.sh)"
        let make = try ExternalTool.find("make", hint: "apt-get install make")
        _ = try ExternalTool.find("dpkg-buildpackage", hint: hint)
        _ = try ExternalTool.find("dh", hint: hint)
        let lintian = try ExternalTool.find("lintian", hint: hint)
        let dpkgDeb = try ExternalTool.find("dpkg-deb", hint: hint)
        _ = try ExternalTool.find("debootstrap", hint: hint, extraDirectories: ["/usr/sbin"])
        guard getuid() == 0 else { try skip("building and installing the package needs root") }
        return (make, lintian, dpkgDeb)
    }

    /// `make deb` into `.build/<directory>` (the release build lives in .build/package, apart
    /// from the `.build` that `swift test` holds), `version` nil for debian/changelog's.
    static func build(with make: URL, into directory: String, version: String? = nil) throws -> Package {
        var arguments = ["-s", "-C", root.path, "deb", "DEB_OUT=.build/\(directory)"]
        if let version { arguments.append("DEB_VERSION=\(version)") }
        let built = try ExternalTool.run(make, arguments)
        try #require(built.status == 0, "make deb: \(built.standardError.suffix(4000))")
        let output = root.appendingPathComponent(".build/\(directory)")
        let architecture = try ExternalTool.run(URL(fileURLWithPath: "/usr/bin/dpkg"), ["--print-architecture"])
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = output.appendingPathComponent("waypointd_\(version ?? Release.version)_\(architecture).deb")
        try #require(FileManager.default.fileExists(atPath: deb.path), "no \(deb.path)")
        return Package(deb: deb, changes: output.appendingPathComponent("waypointd.changes"))
    }

    /// Built once for every test of the suite (they run one at a time).
    nonisolated(unsafe) static var built: Package?
    static func package(with make: URL) throws -> Package {
        if let built { return built }
        let package = try build(with: make, into: "deb")
        built = package
        return package
    }

    @Test("the package holds the install list, one conffile, the maintainer scripts it needs, and passes lintian")
    func contents() throws {
        let (make, lintian, dpkgDeb) = try Self.prerequisites()
        let package = try Self.package(with: make)

        // The files: make's install list with Debian's paths, compressed where dh_compress
        // compresses (man pages, docs over 4 kB), plus Debian's own copyright and changelog.
        let listed = try ExternalTool.run(
            make, ["-s", "-C", Self.root.path, "print-install-files", "PREFIX=/usr", "UNITDIR=/lib/systemd/system"])
        let expected = Set(listed.standardOutput.split(separator: "\n").map(String.init)).union([
            "/usr/share/doc/waypointd/copyright", "/usr/share/doc/waypointd/changelog.gz",
        ])
        #expect(expected.count == 32)  // the 30 of InstallTests, and those two
        let unpacked = try InstallTests.temporaryDirectory("deb")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        #expect(try ExternalTool.run(dpkgDeb, ["-x", package.deb.path, unpacked.path]).status == 0)
        let files = InstallTests.files(below: unpacked)
        let uncompressed = Set(files.map { $0.hasSuffix(".gz") && !$0.hasSuffix("changelog.gz") ? String($0.dropLast(3)) : $0 })
        #expect(uncompressed == expected, "in the package, not listed: \(uncompressed.subtracting(expected)); listed, not in it: \(expected.subtracting(uncompressed))")
        for page in ["man1/waypointctl.1", "man5/waypointd.conf.5", "man8/waypointd.8", "man8/waypoint-web.8"] {
            #expect(files.contains("/usr/share/man/\(page).gz"), "\(page) is not compressed")
        }
        // The units name the programs where the package puts them.
        let service = try String(
            contentsOf: unpacked.appendingPathComponent("lib/systemd/system/waypointd.service"), encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/waypointd --config /etc/waypointd/waypointd.conf"))
        let settings = service.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!settings.contains { $0.contains("/usr/local") }, "\(settings)")

        // The control files: the configuration is the one conffile; the user is made before the
        // units start; a remove stops them; a purge takes the state.
        let control = try InstallTests.temporaryDirectory("control")
        defer { try? FileManager.default.removeItem(at: control) }
        #expect(try ExternalTool.run(dpkgDeb, ["-e", package.deb.path, control.path]).status == 0)
        func script(_ name: String) -> String {
            (try? String(contentsOf: control.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        #expect(Set(script("conffiles").split(separator: "\n")) == ["/etc/waypointd/waypointd.conf", "/etc/waypointd/waypoint-web.conf"])
        let postinst = script("postinst")
        // The companion's user is made too; its unit is enabled only if it was before (an
        // upgrade), which lifeInADebianSystem checks on a real system; a remove stops it.
        #expect(!postinst.contains("was-enabled defaults to true, so new installations run enable.\n\t\t# Enables the unit on first installation, creates new\n\t\t# symlinks on upgrades if the unit file has changed.\n\t\tdeb-systemd-helper enable 'waypoint-web.service'"))
        #expect(script("prerm").contains("deb-systemd-invoke stop 'waypoint-web.service'"), "\(script("prerm"))")
        let sysusers = try #require(
            postinst.range(of: "systemd-sysusers ${DPKG_ROOT:+--root=\"$DPKG_ROOT\"} waypoint-web.conf waypointd.conf"), "\(postinst)")
        let enable = try #require(postinst.range(of: "deb-systemd-helper enable 'waypointd.socket'"), "\(postinst)")
        let start = try #require(postinst.range(of: "deb-systemd-invoke $_dh_action 'waypointd.service' 'waypointd.socket'"))
        #expect(sysusers.lowerBound < enable.lowerBound && enable.lowerBound < start.lowerBound)
        #expect(script("prerm").contains("deb-systemd-invoke stop 'waypointd.service' 'waypointd.socket'"))
        #expect(script("postrm").contains("rm -rf /var/lib/waypointd /var/lib/waypoint-web"))
        let fields = try ExternalTool.run(dpkgDeb, ["-f", package.deb.path, "Depends", "Version"]).standardOutput
        #expect(fields.contains("Version: \(Release.version)\n"), "\(fields)")
        // The Swift runtime is linked in (no Debian package has it); libgps's archive too.
        #expect(!fields.contains("swift") && !fields.contains("libgps"), "\(fields)")
        #expect(fields.contains("systemd | systemd-standalone-sysusers | systemd-sysusers"), "\(fields)")
        for library in ["libmicrohttpd12", "libqrencode4", "libjs-leaflet"] { #expect(fields.contains(library), "\(fields)") }

        // lintian: no error and no warning (an override would need its reason in debian/).
        let judged = try ExternalTool.run(lintian, ["--fail-on", "error,warning", "--pedantic", package.changes.path])
        #expect(judged.status == 0, "lintian: \(judged.standardOutput)\(judged.standardError)")
        let findings = judged.standardOutput.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(findings.isEmpty, "\(findings)")
        print("lintian: \(judged.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("N:") }.count) notes at info or pedantic level, none at warning or error")
    }

    @Test("in a debootstrapped Debian 12 under its own systemd: install, status, upgrade keeping an edited conffile, remove with the motor off, purge")
    func lifeInADebianSystem() async throws {
        let (make, _, _) = try Self.prerequisites()
        let (bash, _) = try ServiceUnderSystemdTests.prerequisites()
        let made = try ExternalTool.run(bash, [Self.root.appendingPathComponent("scripts/debian-root.sh").path])
        try #require(made.status == 0, "scripts/debian-root.sh: \(made.standardError)")
        let debianRoot = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let first = try Self.package(with: make)
        let upgrade = try Self.build(with: make, into: "deb-upgrade", version: Self.upgradeVersion)

        let work = try InstallTests.temporaryDirectory("debian-root")
        let systemd = ServiceUnderSystemdTests.PrivateSystemd(bash: bash, work: work)
        defer {
            _ = try? systemd.script(["down", work.path])
            try? FileManager.default.removeItem(at: work)
        }
        // Install, upgrade, remove and purge take a minute or two; the namespaces' time limit
        // (the script's LIFETIME, 120 s by default) is raised to be sure they outlast them.
        let up = try ExternalTool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["LIFETIME=600", bash.path, ServiceUnderSystemdTests.script.path, "boot", work.path, debianRoot])
        if up.status == 77 { try skip(up.standardError.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(up.status == 0, "\(up.standardError)")
        for deb in [first.deb, upgrade.deb] {
            try FileManager.default.copyItem(at: deb, to: work.appendingPathComponent(deb.lastPathComponent))
        }
        let inside = "/run/waypoint-test"

        func run(_ command: [String]) throws -> ExternalTool.Output {
            try systemd.script(["in", work.path, "env", "DEBIAN_FRONTEND=noninteractive"] + command)
        }
        func run(_ command: String...) throws -> ExternalTool.Output { try run(command) }
        func succeeds(_ command: String...) throws -> String {
            let output = try run(command)
            #expect(output.status == 0, "\(command.joined(separator: " ")): \(output.standardOutput)\(output.standardError)\n\(systemd.journal())")
            return output.standardOutput
        }
        func installedVersion() throws -> String {
            try run("dpkg-query", "-W", "-f", "${Version} ${db:Status-Abbrev}", "waypointd").standardOutput
        }
        func status() throws -> ExternalTool.Output { try run("waypointctl", "status") }

        // Install: the postinst makes the user, enables both units and starts them.
        _ = try succeeds("dpkg", "-i", "\(inside)/\(first.deb.lastPathComponent)")
        #expect(try installedVersion().hasPrefix("\(Release.version) ii"))
        #expect(try succeeds("systemctl", "is-enabled", "waypointd.service", "waypointd.socket") == "enabled\nenabled\n")
        #expect(try systemd.service()["ActiveState"] == "active", "\(systemd.journal())")
        let groups = Set(try succeeds("id", "-nG", "waypoint").split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(groups.isSuperset(of: ["waypoint", "i2c", "gpio"]), "\(groups)")
        let answered = try status()
        #expect(answered.status == 0, "waypointctl status: \(answered.standardOutput)\(answered.standardError)")
        #expect(answered.standardOutput.hasPrefix("state: "), "\(answered.standardOutput)")
        // The programs run in a system without the Swift toolchain: the runtime is linked in.
        #expect(try succeeds("waypointctl", "--version") == "waypointctl \(Release.version)\n")
        // The companion: installed, disabled and stopped until someone wants it; then it starts
        // as its own user, finds its page and Debian's Leaflet, and pairs a phone.
        #expect(try run("systemctl", "is-enabled", "waypoint-web.service").standardOutput == "disabled\n")
        #expect(try run("systemctl", "is-active", "waypoint-web.service").standardOutput == "inactive\n")
        let webGroups = Set(try succeeds("id", "-nG", "waypoint-web").split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(webGroups == ["waypoint-web", "waypoint"], "\(webGroups)")
        _ = try succeeds("systemctl", "start", "waypoint-web.service")
        #expect(try succeeds("systemctl", "is-active", "waypoint-web.service") == "active\n", "\(systemd.journal())")
        let pairing = try succeeds("runuser", "-u", "waypoint-web", "--", "waypoint-web", "pair", "--json")
        #expect(pairing.hasPrefix("{\"url\":\"http://127.0.0.1:8740/pair?token="), "\(pairing)")
        // State worth keeping across the upgrade and the remove, and taking at the purge.
        _ = try succeeds("waypointctl", "place", "add", "home", "52.5163,13.3777")
        #expect(try succeeds("ls", "/var/lib/waypointd").contains("places.json"))

        // The wearer edits the configuration; an upgrade keeps the edit and restarts the daemon.
        _ = try succeeds("sed", "-i", "s/^#fix-timeout-seconds 3$/fix-timeout-seconds 7/", "/etc/waypointd/waypointd.conf")
        let pidBefore = try systemd.service()["MainPID"]
        _ = try succeeds("dpkg", "-i", "\(inside)/\(upgrade.deb.lastPathComponent)")
        #expect(try installedVersion().hasPrefix("\(Self.upgradeVersion) ii"))
        #expect(try succeeds("grep", "-c", "^fix-timeout-seconds 7$", "/etc/waypointd/waypointd.conf") == "1\n")
        #expect(try succeeds("ls", "/etc/waypointd") == "waypoint-web.conf\nwaypointd.conf\n", "a .dpkg-new or .dpkg-old beside it")
        #expect(try succeeds("waypointd", "--print-config", "--config", "/etc/waypointd/waypointd.conf").contains("fix-timeout-seconds 7\n"))
        let service = try systemd.service()
        #expect(service["ActiveState"] == "active" && service["MainPID"] != pidBefore, "\(service)")
        #expect(try status().status == 0)
        #expect(try succeeds("waypointctl", "place", "list").contains("home"))

        // Remove, with the motor running as if the daemon had left it on: the prerm stops the
        // units, the daemon and ExecStopPost= switch the motor off. Configuration and state stay.
        try systemd.forceMotorOn()
        _ = try succeeds("apt-get", "remove", "-y", "-q", "waypointd")
        #expect(systemd.motorIsOff, "motor on after apt-get remove: \(systemd.motor)\n\(systemd.journal())")
        #expect(try installedVersion().hasPrefix("\(Self.upgradeVersion) rc"))
        let active = try run("systemctl", "is-active", "waypointd.service", "waypointd.socket").standardOutput
        #expect(!active.split(separator: "\n").contains("active"), "\(active)")
        #expect(try run("test", "-e", "/usr/bin/waypointd").status != 0)
        #expect(try run("test", "-S", "/run/waypointd/control.sock").status != 0, "the socket outlived the package")
        #expect(try run("test", "-e", "/var/lib/waypointd/places.json").status == 0)
        #expect(try run("test", "-e", "/etc/waypointd/waypointd.conf").status == 0)

        // Purge: the configuration and the state go.
        _ = try succeeds("apt-get", "purge", "-y", "-q", "waypointd")
        #expect(try run("test", "-e", "/var/lib/waypointd").status != 0, "the state outlived the purge")
        #expect(try run("test", "-e", "/var/lib/waypoint-web").status != 0, "the sessions outlived the purge")
        #expect(try run("test", "-e", "/etc/waypointd").status != 0, "the configuration outlived the purge")
        let forgotten = try run("dpkg-query", "-W", "-f", "${db:Status-Abbrev}", "waypointd")
        #expect(forgotten.status != 0 || forgotten.standardOutput.hasPrefix("un"), "\(forgotten.standardOutput)")
    }
}
