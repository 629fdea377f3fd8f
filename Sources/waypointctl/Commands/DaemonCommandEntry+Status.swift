import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `status`: what the daemon knows now.
    static let status = DaemonCommandEntry(
        name: "status",
        overview: """
              status [--json]              state, heading, destination, distance, fix, motor
            """,
        help: """
            usage: waypointctl status [--json]

            What the daemon knows now, one "label: value" line each: state, heading (true, with
            its compass point), destination (name and position), distance, bearing, turn (the
            alignment error: how far and which way to turn to face the destination), GPS fix
            (mode and estimated error), position, motor drive (intensity and PWM duty),
            calibration and mute. States: idle (no destination), no-fix, no-heading, guiding,
            arrived.

            --json         print the daemon's STATUS line as it came, for scripts
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: ["--json"],
        parse: { arguments, now throws(UsageError) in
            try arguments.expectNoPositionals()
            return .status(json: arguments.has("--json"))
        })
}
