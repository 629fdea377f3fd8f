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
                   waypointctl calibrate start --wait [--timeout SECONDS]

            Calibrate the magnetometer: start, then turn the device slowly through a figure
            eight, every way up, until every direction has samples (the motor ticks as each one
            fills); then finish to fit and store the calibration (if coverage is not yet enough,
            the daemon says what is missing and keeps collecting). cancel stops and keeps the
            calibration in use; reset forgets it. Each action prints the state, the samples, the
            directions still missing in words ("tilt it nose-down and to the left"), whether a
            fit would be good now, the fit's quality and a message. Without an action: status.

            --wait            after start, wait: say what is still missing as it changes, and
                              return 0 once a fit would be good (then finish), or 1 at the timeout
            --timeout SECONDS how long --wait waits, 1 to 3600 (default 120)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--timeout"], flagOptions: ["--wait"],
        words: CalibrationAction.allCases.map(\.rawValue),
        parse: { arguments, now throws(UsageError) in
            let action = try choice(arguments, default: CalibrationAction.status, what: "action", command: "calibrate")
            guard arguments.has("--wait") else {
                guard arguments.value("--timeout") == nil else { throw UsageError("--timeout only with --wait", command: "calibrate") }
                return .calibrate(action)
            }
            guard action == .start else { throw UsageError("--wait only with start", command: "calibrate") }
            let timeout = arguments.value("--timeout").map { Double($0) } ?? 120
            guard let timeout, timeout.isFinite, (1...3600).contains(timeout) else {
                throw UsageError("--timeout '\(arguments.value("--timeout") ?? "")' is not a number of seconds from 1 to 3600", command: "calibrate")
            }
            return .calibrateWaiting(timeoutSeconds: timeout)
        })
}
