import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `button test`: watch the button's gestures without acting on them.
    static let button = DaemonCommandEntry(
        name: "button",
        overview: """
              button test [--seconds N]    print the button's presses, for setting it up
            """,
        help: """
            usage: waypointctl button test [--seconds N]

            For N seconds (default 60, at most \(Int(ControlRequest.maximumButtonTestSeconds))), or until Ctrl-C, the daemon's button
            only shows what it recognises: each gesture (single, double, triple, long,
            very-long) is confirmed by a tick on the motor and printed here, and nothing is
            done. The devices are printed as they are read or lost. Exits 1 when the daemon
            reads no button (set button in waypointd.conf(5)).

            --seconds N    how long, 1 to \(Int(ControlRequest.maximumButtonTestSeconds))
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--seconds"], flagOptions: [],
        words: ["test"],
        parse: { arguments, now throws(UsageError) in
            guard arguments.positionals == ["test"] else {
                throw UsageError(
                    arguments.positionals.isEmpty ? "button needs test" : "button takes test, not '\(arguments.positionals.joined(separator: " "))'",
                    command: "button")
            }
            guard let text = arguments.value("--seconds") else { return .buttonTest(seconds: 60) }
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Double(text), seconds >= 1,
                seconds <= ControlRequest.maximumButtonTestSeconds
            else {
                throw UsageError("--seconds '\(text)' is not a whole number of seconds from 1 to \(Int(ControlRequest.maximumButtonTestSeconds))", command: "button")
            }
            return .buttonTest(seconds: seconds)
        })
}
