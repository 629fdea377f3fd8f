import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `track`: the breadcrumb trail as GPX, or forget it.
    static let track = DaemonCommandEntry(
        name: "track",
        overview: """
              track export|clear           the breadcrumb trail as GPX on standard output, or forget it
            """,
        help: """
            usage: waypointctl track export [--since TIME] [--until TIME]
                   waypointctl track clear

            While it has a fix the daemon keeps a breadcrumb trail in its state directory: a
            point every 5 m walked, or every 30 s standing, written once a minute (a power cut
            loses at most the last minute), at most two files of 4 MiB (days of walking; the
            oldest goes first). export writes it as GPX 1.1 on standard output (redirect it:
            > walk.gpx): one track, a new
            segment after a gap or a lost fix, with times, elevation, hdop and satellites; the
            count of points goes to standard error. clear forgets it.

            --since TIME   from this time: UTC such as 2026-12-02T08:00:00Z, or a time ago
                           such as 90s, 30m, 2h or 1d
            --until TIME   up to this time, the same way
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--since", "--until"], flagOptions: [],
        words: TrackAction.names,
        parse: { arguments, now throws(UsageError) in
            let name = "track"
            switch arguments.positionals {
            case ["export"]:
                let since = try arguments.value("--since").map { (text) throws(UsageError) in
                    try TrackExport.parseTime(text, option: "--since", now: now)
                }
                let until = try arguments.value("--until").map { (text) throws(UsageError) in
                    try TrackExport.parseTime(text, option: "--until", now: now)
                }
                // "--since 2h --until 3h": three hours ago is before two hours ago.
                if let since, let until, until < since {
                    throw UsageError(
                        "--until \(arguments.value("--until") ?? "") is before --since \(arguments.value("--since") ?? ""): nothing is in between "
                            + "(a time ago counts back from now: --since 3h --until 2h is the hour before the last)", command: name)
                }
                return .trackExport(since: since, until: until)
            case ["clear"]:
                guard arguments.value("--since") == nil, arguments.value("--until") == nil else {
                    throw UsageError("--since and --until go with track export", command: name)
                }
                return .trackClear
            default:
                throw UsageError("track takes export or clear", command: name)
            }
        })
}
