import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `buzz`: play a pattern.
    static let buzz = DaemonCommandEntry(
        name: "buzz",
        overview: """
              buzz [PATTERN]               play a pattern on the motor
            """,
        help: """
            usage: waypointctl buzz [PATTERN]

            Play a pattern on the motor now, to learn it or to check the wiring. PATTERN is one of
            accepted, arrived, waypoint-reached, gps-lost, heading-unreliable, calibrated, test (default: test,
            one second at full drive).

            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: [], flagOptions: [],
        words: BuzzPattern.allCases.map(\.rawValue),
        parse: { arguments, now throws(UsageError) in
            .buzz(try choice(arguments, default: .test, what: "pattern", command: "buzz"))
        })
}
