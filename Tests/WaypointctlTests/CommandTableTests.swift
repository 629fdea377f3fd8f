import CommandLineSupport
import ControlProtocol
import Testing

@testable import waypointctl

/// waypointctl's command table against the protocol: a request the daemon reads has a command
/// of its name, with its help and its line in the overview, and what each command sends the
/// daemon reads back as the same request.
@Suite("waypointctl's command table")
struct CommandTableTests {
    /// One invocation of each command (and of each request a command can send).
    static let invocations = [
        "go 48.8584 2.2945", "go --recent 2", "go Bakery", "clear", "status", "watch --hz 2", "recent", "recent remove 2",
        "place", "place add Car 48.86 2.29", "place rename Car Van", "place remove Van", "route", "route next", "back",
        "track export", "track clear", "mute on", "buzz arrived", "calibrate start",
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
