import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `route`: follow a GPX route.
    static let route = DaemonCommandEntry(
        name: "route",
        overview: """
              route [load FILE.gpx|next|previous|reverse|clear]   follow a GPX route waypoint by waypoint
            """,
        help: """
            usage: waypointctl route [show|next|previous|reverse|clear]
                   waypointctl route load FILE.gpx [--name NAME]

            Follow a route waypoint by waypoint. load reads a GPX 1.1 or 1.0 file (from OsmAnd,
            Komoot, gpx.studio, gpsbabel…): its first route (rte), else its first track
            simplified to waypoints about 20 m or more apart, else its waypoints (wpt) in order. The
            daemon guides to each waypoint in turn and moves on when you reach it or clearly pass
            it, with the waypoint-reached pattern (long, short); arrived plays only at the last.
            The route and how far you are survive a restart of the daemon.

            show           the route, the waypoint being walked to and the distance left
            next, previous skip a waypoint, or go back to the one before
            reverse        walk the route the other way, back to the waypoint last passed
            clear          drop the route and stop guiding
            --name NAME    the route's name (default: the file's)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--name"], flagOptions: [],
        words: RouteAction.names,
        parse: { arguments, now throws(UsageError) in
            try parseRoute(arguments)
        })

    private static func parseRoute(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let command = "route"
        let words = arguments.positionals
        let actions = "show, load FILE, next, previous, reverse or clear"
        if words.first == "load" {
            guard words.count == 2 else { throw UsageError("route load needs one GPX file", command: command) }
            let name = try arguments.value("--name").map { (text) throws(UsageError) in
                try placeName(text, what: "--name", command: command)
            }
            return .routeLoad(path: words[1], name: name)
        }
        guard arguments.value("--name") == nil else { throw UsageError("--name goes with route load", command: command) }
        switch words {
        case [], ["show"]: return .route(.show)
        case ["next"]: return .route(.next)
        case ["previous"]: return .route(.previous)
        case ["reverse"]: return .route(.reverse)
        case ["clear"]: return .route(.clear)
        default: throw UsageError("route takes \(actions), not '\(words.joined(separator: " "))'", command: command)
        }
    }
}
