import Foundation
import Testing
import TestSupport

/// The bash completions (issue 20), run in a real bash with the files loaded as bash-completion
/// would load them.
@Suite("Bash completion", .timeLimit(.minutes(10)))
struct CompletionTests {
    /// The candidates bash offers for `words` (the last one being completed).
    /// The built waypointctl is first on PATH: the completion asks it for its commands and
    /// options (`--completions`); `path`, if given, comes before it.
    static func complete(_ words: [String], function: String = "_waypointctl", path: String? = nil) throws -> [String] {
        let bash = try ExternalTool.find("bash", hint: "apt-get install bash")
        let waypointctl = try ExternalTool.built("waypointctl")
        let root = InstallTests.root.path
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let directories = (path.map { [$0] } ?? []) + [waypointctl.deletingLastPathComponent().path]
        let script = """
            PATH=\(directories.joined(separator: ":")):$PATH
            source \(root)/completion/waypointctl.bash
            source \(root)/completion/waypointd.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=()
            \(function)
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ExternalTool.run(bash, ["--norc", "-c", script])
        #expect(output.status == 0, "\(output.standardError)")
        return output.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("waypointctl <TAB>, go --<TAB>, buzz <TAB>, route <TAB>, and waypointd's commands")
    func candidates() throws {
        let commands = try Self.complete(["waypointctl", ""])
        #expect(Set(commands).isSuperset(of: ["go", "clear", "status", "watch", "recent", "place", "route", "back", "track", "mute", "buzz", "calibrate", "search", "where", "locate", "bearing", "declination"]))
        // Issue 37: the list once lagged behind waypointctl's table (no --search, no --result).
        #expect(
            try Self.complete(["waypointctl", "go", "--"])
                == ["--name", "--recent", "--place", "--near", "--search", "--result", "--socket", "--force", "--walk", "--straight", "--help"])
        #expect(try Self.complete(["waypointctl", "go", "--name", ""]) == [], "a value is not completed")
        #expect(try Self.complete(["waypointctl", "search", "--"]) == ["--near", "--limit", "--socket", "--json", "--help"])
        #expect(try Self.complete(["waypointctl", "mute", ""]) == ["on", "off", "--socket", "--help"])
        #expect(
            try Self.complete(["waypointctl", "buzz", ""])
                == ["accepted", "arrived", "waypoint-reached", "corner-ahead", "gps-lost", "heading-unreliable", "calibrated", "test", "--socket", "--help"])
        #expect(try Self.complete(["waypointctl", "--socket", "/run/x.sock", "route", "re"]) == ["reverse"])
        #expect(try Self.complete(["waypointctl", "bu"]) == ["buzz", "button"])
        #expect(try Self.complete(["waypointctl", "button", ""]) == ["test", "--seconds", "--socket", "--help"])
        #expect(try Self.complete(["waypointd", "motor-"], function: "_waypointd") == ["motor-test", "motor-off"])
        #expect(try Self.complete(["waypointd", "--log-level", "w"], function: "_waypointd") == ["warning"])
    }

    @Test("go <TAB> offers the names of places and recent destinations the daemon lists")
    func names() throws {
        // A stand-in waypointctl on PATH prints what the daemon's lists look like.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fake = directory.appendingPathComponent("waypointctl")
        try """
            #!/bin/sh
            case "$*" in
            --completions*) exec \(try ExternalTool.built("waypointctl").path) "$@" ;;
            *"place list"*) printf '%s\\n' "Bakery, 48°51'21.6\\"N 2°17'56.4\\"E (arrival within 8.0 m)" "Gate 3, north side, 48°51'20.0\\"N 2°17'55.0\\"E" ;;
            *recent*) printf '%s\\n' "1: Eiffel Tower, 48°51'30.2\\"N 2°17'40.2\\"E" "2: 48°51'10.8\\"N 2°20'59.6\\"E" "3: Bakery, 48°51'21.6\\"N 2°17'56.4\\"E" ;;
            esac
            """.write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        let offered = try Self.complete(["waypointctl", "go", ""], path: directory.path)
        // Issue 30, item 12: a recent destination that is also a place is offered once.
        // Then the starts of the forms a place's text takes (issue 26).
        #expect(offered == ["Bakery", "Gate 3, north side", "Eiffel Tower", "geo:", "https://"], "\(offered ?? [])")
        #expect(try Self.complete(["waypointctl", "place", "remove", "Ga"], path: directory.path) == ["Gate 3, north side"])
        // place rename and remove take places only, not recent destinations' names.
        #expect(try Self.complete(["waypointctl", "place", "rename", ""], path: directory.path) == ["Bakery", "Gate 3, north side"])
    }
}
