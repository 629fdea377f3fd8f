import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `calibrate`: calibrate the magnetometer.
    static let calibrate = DaemonCommandEntry(
        name: "calibrate",
        overview: """
              calibrate [ACTION]           magnetometer calibration: start, finish, cancel, status, reset
            """,
        help: """
            usage: waypointctl calibrate [start|finish|cancel|status|reset]

            Calibrate the magnetometer: start, then turn the device slowly through a figure
            eight, every way up, until each octant has samples; then finish to fit and store the
            calibration (if coverage is not yet enough, the daemon says what is missing and keeps
            collecting). cancel stops and keeps the calibration in use; reset forgets it. Each
            action prints the state, samples, per-octant counts, the fit's quality and a message.
            Without an action: status.

            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: [],
        parse: { arguments, now throws(UsageError) in
            .calibrate(try choice(arguments, default: .status, what: "action", command: "calibrate"))
        })
}
