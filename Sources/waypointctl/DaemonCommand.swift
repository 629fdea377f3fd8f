import CommandLineSupport
import ControlProtocol
import Geodesy
import LocationIntake

/// A command for the daemon, read from the command line (pure: no IO).
enum DaemonCommand: Equatable {
    /// `go LAT LON [--name NAME] [--force]`, `go PLACE [--name NAME] [--force]`: the name
    /// given, else the one the place's text carries; `force` sends typed coordinates even when
    /// they look typed longitude first; `walk` is `--walk` (true), `--straight` (false) or
    /// neither (the daemon's `walk` setting).
    case go(Location, name: String?, force: Bool = false, walk: Bool? = nil)
    /// `go` or `place add` with a short plus code and no `--near`: completed near the daemon's
    /// fix, then run as `then` says.
    case completing(String, then: Completion)
    /// `go --recent N`.
    case goRecent(Int)
    /// `clear`.
    case clear
    /// `status [--json]`.
    case status(json: Bool)
    /// `watch [--hz HZ] [--plain]`.
    case watch(hertz: Double, plain: Bool)
    /// `recent`.
    case recent
    /// `mute on|off`.
    case mute(Bool)
    /// `buzz [PATTERN]`.
    case buzz(BuzzPattern)
    /// `calibrate [ACTION]`.
    case calibrate(CalibrationAction)
    /// `calibrate start --wait [--timeout SECONDS]`: start, then wait until a fit would be
    /// good.
    case calibrateWaiting(timeoutSeconds: Double)
    /// `go NAME`, `go --place NAME`.
    case goPlace(String)
    /// `go --search QUERY`: the best match of a search near the fix.
    case goSearch(String, walk: Bool? = nil)
    /// `go --result N`: result N of the last `search`.
    case goResult(Int, walk: Bool? = nil)
    /// `route plan [--from PLACE] TO [--profile P] [--json]`: places resolved when it runs.
    case routePlan(from: PlaceArgument?, to: PlaceArgument, profile: String, json: Bool)
    /// `route load FILE [--name NAME]`: read where it runs, then sent as `route` `load`.
    case routeLoad(path: String, name: String?)
    /// `route [show|next|previous|reverse|clear]`.
    case route(RouteAction)
    /// `place [list]`, `place add|rename|remove …`.
    case place(PlaceAction)
    /// `place mark NAME [--seconds S] [--radius M] [--replace]`: waits S seconds, then asks
    /// the daemon to average the fixes of those seconds.
    case placeMark(name: String, seconds: Double, radiusMeters: Double?, replacing: Bool)
    /// `track export [--since TIME] [--until TIME]`: GPX on standard output.
    case trackExport(since: Double?, until: Double?)
    /// `track clear`.
    case trackClear
    /// `back [--minutes N]`.
    case back(minutes: Double?)
    /// `button test [--seconds N]`.
    case buttonTest(seconds: Double)
    /// `search QUERY …` or `where …`: the request, and whether to print its line as it came.
    case search(ControlRequest, json: Bool)
    /// A request answered with `OK`, which is then printed as `done`: what most new requests
    /// are, so that adding one needs a row in ``table`` and nothing here.
    case send(ControlRequest, done: String)

    /// A place as typed for `route plan`: text `locate` reads, or a result of the last search.
    enum PlaceArgument: Equatable {
        case text(String)
        case result(Int)
    }

    /// What a place still to be completed is for.
    enum Completion: Equatable {
        case go(name: String?, force: Bool, walk: Bool? = nil)
        case placeAdd(name: String, radiusMeters: Double?, replacing: Bool)

        /// The command, once the place is known.
        func command(_ location: Location) -> DaemonCommand {
            switch self {
            case .go(let name, let force, let walk): .go(location, name: name, force: force, walk: walk)
            case .placeAdd(let name, let radius, let replacing):
                .place(
                    .add(
                        DestinationReport(
                            latitude: location.coordinate.latitudeDegrees, longitude: location.coordinate.longitudeDegrees,
                            name: name, radiusMeters: radius), replacing: replacing))
            }
        }
    }

    /// The daemon commands, in the order the help lists them.
    static let table: [DaemonCommandEntry] = [
        .go, .clear, .status, .watch, .recent, .place, .route, .back, .track, .mute, .buzz, .calibrate, .search, .whereAmI, .button,
    ]

    /// The names of the daemon commands, in the order the help lists them.
    static var names: [String] { table.map(\.name) }

    /// The request this command sends first.
    var request: ControlRequest {
        switch self {
        case .go(let location, let name, _, let walk):
            .go(
                latitude: location.coordinate.latitudeDegrees, longitude: location.coordinate.longitudeDegrees,
                name: name ?? location.name, walk: walk)
        // The fix to complete the code near comes first.
        case .completing: .status
        case .goRecent(let index): .goRecent(index)
        case .clear: .clear
        case .status: .status
        case .watch(let hertz, _): .watch(enabled: true, hertz: hertz)
        case .recent: .recent
        case .mute(let on): .mute(on)
        case .buzz(let pattern): .buzz(pattern)
        case .calibrate(let action): .calibrate(action)
        case .calibrateWaiting: .calibrate(.start)
        case .goPlace(let name): .goPlace(name)
        case .goSearch(let query, _): .search(query, latitude: nil, longitude: nil, limit: 1)
        // Read from the last search's results when the command runs; this is the request then.
        case .goResult: .go(latitude: 0, longitude: 0, name: nil)
        // The waypoints come from the file when the command runs.
        case .routeLoad: .route(.load(name: nil, waypoints: []))
        // The places are read when the command runs.
        case .routePlan(_, _, let profile, _):
            .route(.plan(from: nil, to: DestinationReport(latitude: 0, longitude: 0, name: nil), profile: profile, follow: false))
        case .route(let action): .route(action)
        case .place(let action): .place(action)
        case .placeMark(let name, let seconds, let radius, let replacing):
            .place(.mark(name: name, seconds: seconds, radiusMeters: radius, replacing: replacing))
        case .trackExport(let since, let until): .track(.export(since: since, until: until, cursor: nil))
        case .trackClear: .track(.clear)
        case .back(let minutes): .back(minutes: minutes)
        case .buttonTest(let seconds): .buttonTest(seconds: seconds)
        case .send(let request, _), .search(let request, _): request
        }
    }

    /// Reads a daemon command's arguments.
    /// - Parameters:
    ///   - name: The command, one of ``names``.
    ///   - words: The arguments after it.
    ///   - now: The time now, POSIX seconds, for `track --since 30m`.
    /// - Returns: The command, and `--socket`'s value when given after the command.
    /// - Throws: `UsageError` naming what is wrong.
    static func parse(name: String, words: [String], now: Double = 0) throws(UsageError) -> (
        command: DaemonCommand, socket: String?
    ) {
        guard let entry = table.first(where: { $0.name == name }) else { throw UsageError("unknown command '\(name)'") }
        let socket = DaemonCommandEntry.socketOptionName
        let arguments = try Arguments(
            words, valueOptions: Set(entry.valueOptions + [socket]), flagOptions: Set(entry.flagOptions), command: name)
        return (try entry.parse(arguments, now), arguments.value(socket))
    }
}
