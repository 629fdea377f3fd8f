import CommandLineSupport
import ControlProtocol
import Testing

@testable import waypointctl

/// waypointctl's command table against the protocol: a request the daemon reads has a command
/// of its name, with its help and its line in the overview, and what each command sends the
/// daemon reads back as the same request.
@Suite("waypointctl's command table", .timeLimit(.minutes(5)))
struct CommandTableTests {
    /// One invocation of each command (and of each request a command can send).
    static let invocations = [
        "go 48.8584 2.2945", "go --recent 2", "go Bakery", "clear", "status", "watch --hz 2", "recent", "recent remove 2",
        "place", "place add Car 48.86 2.29", "place rename Car Van", "place remove Van", "route", "route next", "back",
        "track export", "track clear", "mute on", "buzz arrived", "calibrate start", "button test", "button test --seconds 5",
    ]

    @Test("the table holds one command for each of the protocol's, in the protocol's order, each with its help")
    func tableMatchesProtocol() {
        #expect(DaemonCommand.names == ControlRequest.commandNames)
        for entry in DaemonCommand.table {
            #expect(entry.help.hasPrefix("usage: waypointctl \(entry.name)"), "\(entry.name)")
            #expect(entry.help.contains("--socket PATH"), "\(entry.name)")
            #expect(entry.overview.hasPrefix("  \(entry.name)"), "\(entry.name)'s line in the overview names it")
        }
    }

    @Test("what each command sends is a request of its own name that the daemon reads back unchanged", arguments: invocations)
    func requestsRoundTrip(_ invocation: String) throws {
        let words = invocation.split(separator: " ").map(String.init)
        let command = try DaemonCommand.parse(name: words[0], words: Array(words.dropFirst())).command
        let request = command.request
        #expect(request.commandName == words[0])
        #expect(try ControlRequest(line: request.line.dropLast()) == request)
    }
}

/// The bash completion reads the tables through `waypointctl --completions`; these hold the
/// tables to the help, which is written by hand: an option the help tells of is one the
/// completion offers, and every command of the overview is completed.
@Suite("waypointctl's completions against its help", .timeLimit(.minutes(5)))
struct CompletionTableTests {
    /// The `--options` a help's usage (its first paragraph) names; the rest of a help may tell
    /// of other commands' options.
    static func options(in help: String) -> Set<String> {
        let usage = help.components(separatedBy: "\n\n").first ?? help
        return Set(
            usage.split(whereSeparator: { !$0.isLetter && $0 != "-" }).filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
    }

    @Test("every option a command's help names is offered for it, and nothing the command does not read")
    func optionsOfEveryCommand() throws {
        for name in Completions.commandNames where name != "help" {
            let lines = try #require(Completions.lines(for: name), "\(name)")
            let offered = Set(lines.filter { $0.hasPrefix("--") }.map { String($0.split(separator: " ")[0]) })
            let help = try #require(Help.text(for: name), "\(name) has no help")
            let named = Self.options(in: help).subtracting(["--help"])
            #expect(!named.isEmpty || offered == ["--help", "--socket"] || offered == ["--help"], "\(name): no usage line read")
            #expect(named.isSubset(of: offered), "\(name): the help names \(named.subtracting(offered).sorted()), not offered")
            // Each offered option is one the command reads: parsing it is not "unknown option".
            for option in offered.subtracting(["--help"]) {
                let words = lines.contains(option + " VALUE") ? [option, "x"] : [option]
                if DaemonCommand.names.contains(name) {
                    do throws(UsageError) {
                        _ = try DaemonCommand.parse(name: name, words: words)
                    } catch {
                        #expect(!error.message.contains("unknown option"), "\(name) \(option): \(error.message)")
                    }
                }
            }
        }
    }

    @Test("every command is completed, the overview's included")
    func commands() {
        #expect(Completions.commandNames == DaemonCommand.names + ["locate", "bearing", "declination", "help"])
        #expect(Completions.lines(for: "no-such-command") == nil)
    }
}
