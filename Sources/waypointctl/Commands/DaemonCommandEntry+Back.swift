import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `back`: guide back along the trail.
    static let back = DaemonCommandEntry(
        name: "back",
        overview: """
              back [--minutes N]           guide back along the breadcrumb trail
            """,
        help: """
            usage: waypointctl back [--minutes N]

            Guide back the way you came: the breadcrumb trail since guidance last started (the
            last go or route load, restarts included; before any, since the daemon started), or
            of the last N minutes, in reverse, simplified to waypoints about 20 m apart, followed
            as a route (see 'waypointctl route --help'); the last waypoint is the start of the
            trail.

            --minutes N    the trail of the last N minutes, 1 to \(Int(ControlProtocol.ControlRequest.maximumBackMinutes))
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--minutes"], flagOptions: [],
        parse: { arguments, now throws(UsageError) in
            try arguments.expectNoPositionals()
            let minutes = try arguments.value("--minutes").map { (text) throws(UsageError) in
                guard let value = Double(text), value.isFinite, value >= 1, value <= ControlRequest.maximumBackMinutes else {
                    throw UsageError("--minutes '\(text)' is not from 1 to \(Int(ControlRequest.maximumBackMinutes))", command: "back")
                }
                return value
            }
            return .back(minutes: minutes)
        })
}
