import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `clear`: stop guiding.
    static let clear = DaemonCommandEntry(
        name: "clear",
        overview: """
              clear                        stop guiding
            """,
        help: """
            usage: waypointctl clear

            Stop guiding and forget the destination (it stays in the recent list). The motor
            goes silent.

            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: [],
        parse: { arguments, now throws(UsageError) in
            try arguments.expectNoPositionals()
            return .clear
        })
}
