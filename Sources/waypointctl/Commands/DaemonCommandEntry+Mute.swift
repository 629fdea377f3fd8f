import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `mute`: silence or restore guidance vibration.
    static let mute = DaemonCommandEntry(
        name: "mute",
        overview: """
              mute on|off                  silence or restore guidance vibration
            """,
        help: """
            usage: waypointctl mute on|off

            on silences guidance vibration (patterns such as arrived still play); off restores
            it. The setting survives a restart of the daemon.

            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: [],
        words: ["on", "off"],
        parse: { arguments, now throws(UsageError) in
            switch arguments.positionals {
            case ["on"]: return .mute(true)
            case ["off"]: return .mute(false)
            case []: throw UsageError("mute needs on or off", command: "mute")
            default:
                throw UsageError("mute takes on or off, not '\(arguments.positionals.joined(separator: " "))'", command: "mute")
            }
        })
}
