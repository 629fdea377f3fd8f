import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `recent`: the recent destinations.
    static let recent = DaemonCommandEntry(
        name: "recent",
        overview: """
              recent [remove N]            the recent destinations, numbered for go --recent
            """,
        help: """
            usage: waypointctl recent
                   waypointctl recent remove N

            The most recent destinations, newest first, numbered for 'waypointctl go --recent N'.
            remove N forgets destination N of that list (one set by mistake, say); the daemon
            keeps the rest in their order.

            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: [],
        words: ["remove"],
        parse: { arguments, now throws(UsageError) in
            switch arguments.positionals {
            case []: return .recent
            case let words where words.first == "remove":
                let count = ControlRequest.recentCount
                guard words.count == 2, let index = Int(words[1]), (1...count).contains(index) else {
                    throw UsageError("recent remove needs a number from 1 to \(count) (see 'waypointctl recent')", command: "recent")
                }
                return .send(.removeRecent(index), done: "recent destination \(index) removed")
            default:
                throw UsageError("recent takes nothing, or remove N; not '\(arguments.positionals.joined(separator: " "))'", command: "recent")
            }
        })
}
