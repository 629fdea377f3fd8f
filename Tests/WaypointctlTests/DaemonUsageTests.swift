import Foundation
import TestSupport
import Testing

/// The daemon commands' help, usage errors (64) and an absent daemon (69), without any daemon.
@Suite("waypointctl daemon commands: help, usage and an absent daemon", .timeLimit(.minutes(5)))
struct DaemonUsageTests {
    /// What a finished run printed, and how it ended.
    /// Runs the built binary with `environment` added to the test's own (less any
    /// `WAYPOINT_SOCKET` of the developer's).
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalTool.Output {
        let waypointctl = try ExternalTool.built("waypointctl")
        var added: [String: String?] = ["WAYPOINT_SOCKET": nil]
        for (name, value) in environment { added[name] = value }
        return try ExternalTool.run(waypointctl, arguments, environment: added)
    }

    /// A socket path where nothing listens.
    private static let absent = "/tmp/waypointctl-test-absent/control.sock"

    @Test(
        "every command has help: COMMAND --help, COMMAND -h, help COMMAND, --help COMMAND",
        arguments: [
            ("go", "usage: waypointctl go LAT LON [--name NAME] [--force]\n"),
            ("clear", "usage: waypointctl clear\n"),
            ("status", "usage: waypointctl status [--json]\n"),
            ("watch", "usage: waypointctl watch [--hz HZ] [--plain]\n"),
            ("recent", "usage: waypointctl recent\n"),
            ("mute", "usage: waypointctl mute on|off\n"),
            ("buzz", "usage: waypointctl buzz [PATTERN]\n"),
            ("calibrate", "usage: waypointctl calibrate [start|finish|cancel|status|reset]\n"),
            ("bearing", "usage: waypointctl bearing FROM TO [--near COORDINATE]\n"),
            ("locate", "usage: waypointctl locate PLACE [--near COORDINATE] [--json]\n"),
            ("declination", "usage: waypointctl declination PLACE"),
        ])
    func help(_ command: String, _ usage: String) throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command], ["--help", command]] {
            let output = try run(arguments)
            #expect(output.status == 0, "\(arguments)")
            #expect(output.standardOutput.hasPrefix(usage), "\(arguments)")
            #expect(output.standardError.isEmpty)
        }
        let overview = try run(["--help"])
        #expect(overview.standardOutput.contains("\n  \(command) "), "the overview lists \(command)")
    }

    @Test("locate (issue 26): what a text means, offline; 65 for a text that is no place, 64 for usage")
    func locate() throws {
        let google = try run(["locate", "Here: https://www.google.com/maps/place/Caf%C3%A9+de+Flore/@48.8541,2.3326,18z/data=!3d48.854167!4d2.3325."])
        #expect(google.status == 0, "\(google.standardError)")
        #expect(
            google.standardOutput == """
                place      48°51'15.0"N 2°19'57.0"E
                decimal    48.854167 2.332500
                name       Café de Flore
                source     Google Maps link

                """)
        let code = try run(["locate", "8fw4v75v+8q9", "--json"])
        // The reference implementation's centre and cell (PyPI openlocationcode): 2.5e-5° × 3.125e-5°.
        #expect(code.standardOutput == #"{"lat":48.8582875,"lon":2.294484375,"source":"plus-code","precision_m":2.8}"# + "\n")
        let geo = try run(["locate", "--json", "geo:48.8584,2.2945;u=35"])
        #expect(geo.standardOutput == #"{"lat":48.8584,"lon":2.2945,"source":"geo-uri","precision_m":35}"# + "\n")
        for (text, reason) in [
            ("https://maps.app.goo.gl/AbC123", "nothing is fetched"), ("bakery", "needs a search"),
            ("V75V+8Q", "give --near COORDINATE"), ("91 200", "out of range"),
            ("bakery \u{1B}]0;owned\u{7} " + String(repeating: "x", count: 5000), "\\u{1B}]0;owned\\u{07}"),
        ] {
            let refused = try run(["locate", text, "--socket", Self.absent])
            #expect(refused.status == 65, "\(text)")
            #expect(refused.standardError.hasPrefix("waypointctl: locate: ") && refused.standardError.contains(reason), "\(refused.standardError)")
            #expect(refused.standardOutput.isEmpty)
            // What was pasted reaches the terminal escaped, and cut: a message stays short.
            #expect(!refused.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
            #expect(refused.standardError.count < 600, "\(refused.standardError.count)")
        }
        for arguments in [["locate"], ["locate", "1 2", "--near"], ["locate", "V75V+8Q", "--near", "somewhere"]] {
            #expect(try run(arguments).status == 64, "\(arguments)")
        }
    }

    @Test("the daemon commands' help names the socket option and its default")
    func helpNamesTheSocket() throws {
        for command in ["go", "clear", "status", "watch", "recent", "mute", "buzz", "calibrate"] {
            let output = try run([command, "--help"])
            #expect(output.standardOutput.contains("--socket PATH"), "\(command)")
            #expect(output.standardOutput.contains("$WAYPOINT_SOCKET"), "\(command)")
            #expect(output.standardOutput.contains("/run/waypointd/control.sock"), "\(command)")
        }
    }

    @Test(
        "no daemon: exit 69 naming the socket, for every command and every way of giving the path",
        arguments: [
            ["go", "48.8584", "2.2945"], ["go", "--recent", "1"], ["clear"], ["status"], ["status", "--json"],
            ["watch"], ["recent"], ["mute", "on"], ["buzz"], ["calibrate", "start"],
        ])
    func absentDaemon(_ arguments: [String]) throws {
        let message =
            "waypointctl: cannot connect to \(Self.absent): No such file or directory — is waypointd running?\n"
        for words in [["--socket", Self.absent] + arguments, arguments + ["--socket=\(Self.absent)"]] {
            let output = try run(words)
            #expect(output.status == 69, "\(words)")
            #expect(output.standardError == message, "\(words)")
            #expect(output.standardOutput.isEmpty)
        }
        let fromEnvironment = try run(arguments, environment: ["WAYPOINT_SOCKET": Self.absent])
        #expect(fromEnvironment.status == 69)
        #expect(fromEnvironment.standardError == message)
    }

    @Test("without --socket or $WAYPOINT_SOCKET, the daemon's default path")
    func defaultPath() throws {
        guard !FileManager.default.fileExists(atPath: "/run/waypointd/control.sock") else {
            try skip("a daemon listens on /run/waypointd/control.sock on this machine")
        }
        let output = try run(["status"])
        #expect(output.status == 69)
        #expect(output.standardError.contains("cannot connect to /run/waypointd/control.sock: "))
    }

    @Test("a socket file nobody listens on, and a path too long for a socket address")
    func unusableSockets() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waypointctl-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A socket bound and closed leaves a file that refuses connections, as after a crash.
        let path = directory.appendingPathComponent("stale.sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(descriptor)
        let stale = try run(["--socket", path, "status"])
        #expect(stale.status == 69)
        #expect(
            stale.standardError
                == "waypointctl: cannot connect to \(path): Connection refused — is waypointd running?\n")

        let long = "/tmp/" + String(repeating: "x", count: 120)
        let tooLong = try run(["--socket", long, "status"])
        #expect(tooLong.status == 69)
        #expect(tooLong.standardError.contains("socket path \(long) is longer than 107 bytes"))
    }

    @Test(
        "usage errors exit 64 with the reason and a pointer to the help, before any connection",
        arguments: [
            (["go"], "go needs a destination", "go"),
            (["go", "1", "2", "3"], "more than two values in '1 2 3'", "go"),
            (["go", "91", "0"], "'91 0': latitude 91 is out of range", "go"),
            (["go", "0", "181"], "longitude 181 is out of range", "go"),
            (["go", "nan", "0"], "'nan 0'", "go"),
            (["go", "1e999", "0"], "'1e999 0'", "go"),
            (["go", "geo:1,2;crs=nad27"], "'geo:1,2;crs=nad27'", "go"),
            (["go", "--recent", "0"], "--recent '0' is not a number from 1 to 5", "go"),
            (["go", "--recent", "6"], "--recent '6' is not a number from 1 to 5", "go"),
            (["go", "--recent", "1", "--name", "x"], "--recent N takes no coordinates, no --name, no --near, no --force and no --walk", "go"),
            (["go", "1", "2", "--name", String(repeating: "n", count: 101)], "--name: name is 101 characters", "go"),
            (["go", "1", "2", "--name"], "--name needs a value", "go"),
            (["status", "now"], "status takes no arguments; got 'now'", "status"),
            (["status", "--yaml"], "unknown option '--yaml' for 'status'", "status"),
            (["clear", "all"], "clear takes no arguments", "clear"),
            (["recent", "3"], "recent takes nothing, or remove N; not '3'", "recent"),
            (["watch", "--hz", "20"], "--hz '20' is not a rate from 0.1 to 10", "watch"),
            (["watch", "--hz", "0"], "--hz '0' is not a rate", "watch"),
            (["watch", "--hz", "nan"], "--hz 'nan' is not a rate", "watch"),
            (["mute"], "mute needs on or off", "mute"),
            (["mute", "yes"], "mute takes on or off, not 'yes'", "mute"),
            (
                ["buzz", "loud"],
                "unknown pattern 'loud' (one of: accepted, arrived, waypoint-reached, corner-ahead, gps-lost, heading-unreliable, calibrated, test)",
                "buzz"
            ),
            (["buzz", "test", "arrived"], "buzz takes one pattern", "buzz"),
            (["calibrate", "now"], "unknown action 'now' (one of: start, finish, cancel, status, reset)", "calibrate"),
            (["status", "--socket", "/a"], "--socket given twice", "status"),
        ] as [([String], String, String)])
    func usage(_ arguments: [String], _ message: String, _ command: String) throws {
        // A global --socket to a path where nothing listens: a usage error must come first.
        let words =
            arguments.contains("--socket") ? ["--socket", "/b"] + arguments : ["--socket", Self.absent] + arguments
        let output = try run(words)
        #expect(output.status == 64, "\(arguments): \(output.standardError)")
        #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
        #expect(output.standardError.hasSuffix("waypointctl: Try 'waypointctl \(command) --help'.\n"), "\(arguments)")
        #expect(output.standardOutput.isEmpty)
    }

    @Test("global option mistakes exit 64")
    func globalUsage() throws {
        for (arguments, message) in [
            (["--socket"], "--socket needs a path"), (["--socket", ""], "--socket needs a path"),
            (["--socket", "/a"], "no command given"), (["--verbose", "status"], "unknown option '--verbose'"),
            (["--socket", "/a", "frobnicate"], "unknown command 'frobnicate'"),
        ] {
            let output = try run(arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(
                output.standardError.hasPrefix("waypointctl: \(message)\n"), "\(arguments): \(output.standardError)")
            #expect(output.standardError.hasSuffix("waypointctl: Try 'waypointctl --help'.\n"))
        }
    }
}
