import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `watch`: follow the daemon live.
    static let watch = DaemonCommandEntry(
        name: "watch",
        overview: """
              watch [--hz HZ] [--plain]    live compass until interrupted
            """,
        help: """
            usage: waypointctl watch [--hz HZ] [--plain]

            Follow the daemon live until Ctrl-C. On a terminal, a compass redrawn in place: the
            ring turns with the wearer (the top, under v, is where they face), N, E, S and W
            inside it mark the directions, o is the wearer, * on the ring the destination and #
            the zone where the motor answers; below it the state, the destination's distance,
            bearing and the turn to make, and the motor's intensity as a bar. Without a heading,
            or while not guiding, the ring is drawn empty and no turn is shown.

            When standard output is not a terminal, or with --plain, lines instead, for logs and
            screen readers: a line at once when the state, the destination or the pattern
            playing changes; when only the numbers change, at most one line every
            \(Int(PlainWatchFilter.secondsBetweenChanges)) seconds; with nothing new, the line again every \(Int(PlainWatchFilter.repeatSeconds)) seconds.
            Exits 0 when interrupted, 69 if the daemon stops answering.

            --hz HZ        updates a second, \(ControlProtocol.ControlRequest.minimumWatchHertz) to \(Int(ControlProtocol.ControlRequest.maximumWatchHertz)) (default \(Int(ControlProtocol.ControlRequest.defaultWatchHertz)))
            --plain        lines even on a terminal (for screen readers)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--hz"], flagOptions: ["--plain"],
        parse: { arguments, now throws(UsageError) in
            try arguments.expectNoPositionals()
            return .watch(hertz: try parseHertz(arguments.value("--hz")), plain: arguments.has("--plain"))
        })

    private static func parseHertz(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return ControlRequest.defaultWatchHertz }
        let range = ControlRequest.minimumWatchHertz...ControlRequest.maximumWatchHertz
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let hertz = Double(text),
            range.contains(hertz)
        else {
            throw UsageError(
                "--hz '\(text)' is not a rate from \(range.lowerBound) to \(Int(range.upperBound)) updates a second",
                command: "watch")
        }
        return hertz
    }
}
