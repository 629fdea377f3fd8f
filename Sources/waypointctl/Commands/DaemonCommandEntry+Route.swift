import CommandLineSupport
import ControlProtocol

extension DaemonCommandEntry {
    /// `route`: follow a GPX route.
    static let route = DaemonCommandEntry(
        name: "route",
        overview: """
              route [load FILE.gpx|next|previous|reverse|clear]   follow a GPX route waypoint by waypoint
              route plan [--from PLACE] TO [--profile P] [--json]   plan a walk over the streets
            """,
        help: """
            usage: waypointctl route [show|next|previous|reverse|clear]
                   waypointctl route load FILE.gpx [--name NAME]
                   waypointctl route plan [--from PLACE] TO [--profile P] [--json]
                   waypointctl route plan [--from PLACE] --result N [--profile P] [--json]

            Follow a route waypoint by waypoint. load reads a GPX 1.1 or 1.0 file (from OsmAnd,
            Komoot, gpx.studio, gpsbabel…): its first route (rte), else its first track
            simplified to waypoints about 20 m or more apart, else its waypoints (wpt) in order. The
            daemon guides to each waypoint in turn and moves on when you reach it or clearly pass
            it, with the waypoint-reached pattern (long, short); arrived plays only at the last.
            The route and how far you are survive a restart of the daemon.

            show           the route, the waypoint being walked to and the distance left; for
                           a walk, the turns still ahead
            plan TO        plan a walk over the streets to TO, offline, with the walking routes
                           'waypointd map import' built (Routino), and print its turns as a
                           person would say them; nothing is set (go TO --walk follows one).
                           TO and PLACE are anything 'waypointctl locate' reads
            --from PLACE   where the walk starts (default: the current fix)
            --result N     walk to result N of the last 'waypointctl search'
            --profile P    foot (default: every way a person may walk, steps included) or
                           wheelchair (no steps)
            --json         the daemon's PLAN reply: {"distance_m", "duration_s", "shape":
                           [[lat, lon], …], "turns": [{"lat", "lon", "turn_deg", "street",
                           "distance_m", "instruction"}, …]}; turn_deg is positive to the right
            next, previous skip a waypoint, or go back to the one before
            reverse        walk the route the other way, back to the waypoint last passed
            clear          drop the route and stop guiding
            --name NAME    the route's name (default: the file's)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--name", "--from", "--profile", "--result"], flagOptions: ["--json"],
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
        if words.first == "plan" { return try parsePlan(arguments, words: Array(words.dropFirst())) }
        for option in ["--from", "--profile", "--result", "--json"] where arguments.has(option) || arguments.value(option) != nil {
            throw UsageError("\(option) goes with route plan", command: command)
        }
        switch words {
        case [], ["show"]: return .route(.show)
        case ["next"]: return .route(.next)
        case ["previous"]: return .route(.previous)
        case ["reverse"]: return .route(.reverse)
        case ["clear"]: return .route(.clear)
        default: throw UsageError("route takes \(actions), not '\(words.joined(separator: " "))'", command: command)
        }
    }

    /// `route plan [--from PLACE] TO|--result N [--profile P] [--json]`.
    private static func parsePlan(_ arguments: Arguments, words: [String]) throws(UsageError) -> DaemonCommand {
        let command = "route"
        let to: DaemonCommand.PlaceArgument
        if let result = arguments.value("--result") {
            guard words.isEmpty else { throw UsageError("route plan takes TO or --result N, not both", command: command) }
            guard let number = Int(result), (1...ControlRequest.maximumSearchResults).contains(number) else {
                throw UsageError("--result '\(result)' is not a number from 1 to \(ControlRequest.maximumSearchResults)", command: command)
            }
            to = .result(number)
        } else {
            guard !words.isEmpty else { throw UsageError("route plan needs a destination: TO, or --result N", command: command) }
            to = .text(words.joined(separator: " "))
        }
        let from = arguments.value("--from").map { DaemonCommand.PlaceArgument.text($0) }
        if case .text(let text)? = from, text.isEmpty { throw UsageError("--from needs a place", command: command) }
        let profile = arguments.value("--profile") ?? "foot"
        guard RouteAction.profiles.contains(profile) else {
            throw UsageError("--profile is one of \(RouteAction.profiles.joined(separator: ", ")), not '\(profile)'", command: command)
        }
        return .routePlan(from: from, to: to, profile: profile, json: arguments.has("--json"))
    }
}
