import CommandLineSupport
import ControlProtocol
import Geodesy

/// A command for the daemon, read from the command line (pure: no IO).
enum DaemonCommand: Equatable {
    /// `go LAT LON [--name NAME]`, `go COORDINATE [--name NAME]`.
    case go(Coordinate, name: String?)
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
    /// `go NAME`, `go --place NAME`.
    case goPlace(String)
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

    /// The names of the daemon commands, in the order the help lists them.
    static let names = [
        "go", "clear", "status", "watch", "recent", "place", "route", "back", "track", "mute", "buzz", "calibrate",
    ]

    /// The request this command sends first.
    var request: ControlRequest {
        switch self {
        case .go(let coordinate, let name):
            .go(latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees, name: name)
        case .goRecent(let index): .goRecent(index)
        case .clear: .clear
        case .status: .status
        case .watch(let hertz, _): .watch(enabled: true, hertz: hertz)
        case .recent: .recent
        case .mute(let on): .mute(on)
        case .buzz(let pattern): .buzz(pattern)
        case .calibrate(let action): .calibrate(action)
        case .goPlace(let name): .goPlace(name)
        // The waypoints come from the file when the command runs.
        case .routeLoad: .route(.load(name: nil, waypoints: []))
        case .route(let action): .route(action)
        case .place(let action): .place(action)
        case .placeMark(let name, let seconds, let radius, let replacing):
            .place(.mark(name: name, seconds: seconds, radiusMeters: radius, replacing: replacing))
        case .trackExport(let since, let until): .track(.export(since: since, until: until, cursor: nil))
        case .trackClear: .track(.clear)
        case .back(let minutes): .back(minutes: minutes)
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
        let socketOption = "--socket"
        switch name {
        case "go":
            let arguments = try Arguments(
                words, valueOptions: ["--name", "--recent", "--place", socketOption], command: name)
            return (try parseGo(arguments), arguments.value(socketOption))
        case "route":
            let arguments = try Arguments(words, valueOptions: ["--name", socketOption], command: name)
            return (try parseRoute(arguments), arguments.value(socketOption))
        case "track":
            let arguments = try Arguments(words, valueOptions: ["--since", "--until", socketOption], command: name)
            switch arguments.positionals {
            case ["export"]:
                let since = try arguments.value("--since").map { (text) throws(UsageError) in
                    try TrackExport.parseTime(text, option: "--since", now: now)
                }
                let until = try arguments.value("--until").map { (text) throws(UsageError) in
                    try TrackExport.parseTime(text, option: "--until", now: now)
                }
                return (.trackExport(since: since, until: until), arguments.value(socketOption))
            case ["clear"]:
                guard arguments.value("--since") == nil, arguments.value("--until") == nil else {
                    throw UsageError("--since and --until go with track export", command: name)
                }
                return (.trackClear, arguments.value(socketOption))
            default:
                throw UsageError("track takes export or clear", command: name)
            }
        case "back":
            let arguments = try Arguments(words, valueOptions: ["--minutes", socketOption], command: name)
            try arguments.expectNoPositionals()
            let minutes = try arguments.value("--minutes").map { (text) throws(UsageError) in
                guard let value = Double(text), value.isFinite, value >= 1, value <= ControlRequest.maximumBackMinutes else {
                    throw UsageError(
                        "--minutes '\(text)' is not from 1 to \(Int(ControlRequest.maximumBackMinutes))", command: name)
                }
                return value
            }
            return (.back(minutes: minutes), arguments.value(socketOption))
        case "place":
            let arguments = try Arguments(
                words, valueOptions: ["--radius", "--seconds", socketOption], flagOptions: ["--replace"], command: name)
            return (try parsePlace(arguments), arguments.value(socketOption))
        case "status":
            let arguments = try Arguments(words, valueOptions: [socketOption], flagOptions: ["--json"], command: name)
            try arguments.expectNoPositionals()
            return (.status(json: arguments.has("--json")), arguments.value(socketOption))
        case "watch":
            let arguments = try Arguments(
                words, valueOptions: ["--hz", socketOption], flagOptions: ["--plain"], command: name)
            try arguments.expectNoPositionals()
            let hertz = try parseHertz(arguments.value("--hz"))
            return (.watch(hertz: hertz, plain: arguments.has("--plain")), arguments.value(socketOption))
        case "clear", "recent":
            let arguments = try Arguments(words, valueOptions: [socketOption], command: name)
            try arguments.expectNoPositionals()
            return (name == "clear" ? .clear : .recent, arguments.value(socketOption))
        case "mute":
            let arguments = try Arguments(words, valueOptions: [socketOption], command: name)
            let on: Bool
            switch arguments.positionals {
            case ["on"]: on = true
            case ["off"]: on = false
            case []: throw UsageError("mute needs on or off", command: name)
            default:
                throw UsageError(
                    "mute takes on or off, not '\(arguments.positionals.joined(separator: " "))'", command: name)
            }
            return (.mute(on), arguments.value(socketOption))
        case "buzz":
            let arguments = try Arguments(words, valueOptions: [socketOption], command: name)
            let pattern: BuzzPattern = try choice(arguments, default: .test, what: "pattern", command: name)
            return (.buzz(pattern), arguments.value(socketOption))
        case "calibrate":
            let arguments = try Arguments(words, valueOptions: [socketOption], command: name)
            let action: CalibrationAction = try choice(arguments, default: .status, what: "action", command: name)
            return (.calibrate(action), arguments.value(socketOption))
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }

    private static func parseGo(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let name = "go"
        if let place = arguments.value("--place") {
            guard arguments.positionals.isEmpty, arguments.value("--name") == nil, arguments.value("--recent") == nil else {
                throw UsageError("--place NAME takes no coordinates, no --name and no --recent", command: name)
            }
            return .goPlace(try placeName(place, what: "--place", command: name))
        }
        if let recentText = arguments.value("--recent") {
            guard arguments.positionals.isEmpty, arguments.value("--name") == nil else {
                throw UsageError("--recent N takes no coordinates and no --name", command: name)
            }
            guard let index = Int(recentText), (1...ControlRequest.recentCount).contains(index) else {
                throw UsageError(
                    "--recent '\(recentText)' is not a number from 1 to \(ControlRequest.recentCount) "
                        + "(see 'waypointctl recent')",
                    command: name)
            }
            return .goRecent(index)
        }
        let positionals = arguments.positionals
        guard positionals.count == 1 || positionals.count == 2 else {
            throw UsageError(
                "go needs a destination (LAT LON, one coordinate such as geo:48.8584,2.2945, or --recent N); "
                    + "got \(positionals.count) arguments",
                command: name)
        }
        let text = positionals.joined(separator: " ")
        let coordinate: Coordinate
        do throws(CoordinateParseError) {
            coordinate = try Coordinate(parsing: text)
        } catch {
            // Letters no coordinate uses: a place's name ("go Bakery", "go Gate 3").
            if arguments.value("--name") == nil, Self.isPlaceName(text) {
                return .goPlace(try placeName(text, what: "the place's name", command: name))
            }
            throw UsageError("'\(text)': \(error)", command: name)
        }
        do throws(PlaceNameError) {
            return .go(coordinate, name: try PlaceName.validated(arguments.value("--name")))
        } catch {
            throw UsageError("--name: \(error)", command: name)
        }
    }

    /// Whether `text`, which is no coordinate, reads as a name: a word of it has a letter that
    /// neither a hemisphere (N S E W), `geo:` nor a number's spelling (`nan`, `inf`) explains.
    static func isPlaceName(_ text: String) -> Bool {
        guard !text.lowercased().hasPrefix("geo:") else { return false }
        return text.split(whereSeparator: \.isWhitespace).contains { word in
            Double(word) == nil
                && word.unicodeScalars.contains { $0.properties.isAlphabetic && !"NSEWnsew".unicodeScalars.contains($0) }
        }
    }

    private static func placeName(_ text: String, what: String, command: String) throws(UsageError) -> String {
        let name: String?
        do throws(PlaceNameError) {
            name = try PlaceName.validated(text)
        } catch {
            throw UsageError("\(what): \(error)", command: command)
        }
        guard let name else { throw UsageError("\(what) is empty", command: command) }
        return name
    }

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

    private static func parsePlace(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let command = "place"
        let words = arguments.positionals
        let radius = try arguments.value("--radius").map { (text) throws(UsageError) in
            let range = ControlRequest.arrivalRadiusRangeMeters
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw UsageError(
                    "--radius '\(text)' is not a distance from \(Int(range.lowerBound)) to \(Int(range.upperBound)) metres",
                    command: command)
            }
            return value
        }
        let replacing = arguments.has("--replace")
        let action = words.first ?? "list"
        if action != "mark", arguments.value("--seconds") != nil {
            throw UsageError("--seconds goes with place mark", command: command)
        }
        if !["add", "mark"].contains(action), radius != nil || replacing {
            throw UsageError("--radius and --replace go with place add and place mark", command: command)
        }
        switch action {
        case "list":
            guard words.count <= 1 else { throw UsageError("place list takes nothing more", command: command) }
            return .place(.list)
        case "add":
            guard words.count >= 3 else {
                throw UsageError("place add needs a name and a coordinate: place add NAME LAT LON", command: command)
            }
            let name = try placeName(words[1], what: "the name", command: command)
            let text = words[2...].joined(separator: " ")
            do throws(CoordinateParseError) {
                let coordinate = try Coordinate(parsing: text)
                return .place(
                    .add(
                        DestinationReport(
                            latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees, name: name,
                            radiusMeters: radius), replacing: replacing))
            } catch {
                throw UsageError("'\(text)': \(error)", command: command)
            }
        case "mark":
            guard words.count == 2 else { throw UsageError("place mark needs one name", command: command) }
            var seconds = PlaceAction.defaultMarkSeconds
            if let text = arguments.value("--seconds") {
                guard let value = Double(text), value.isFinite, value >= 1, value <= PlaceAction.maximumMarkSeconds else {
                    throw UsageError(
                        "--seconds '\(text)' is not from 1 to \(Int(PlaceAction.maximumMarkSeconds))", command: command)
                }
                seconds = value
            }
            return .placeMark(
                name: try placeName(words[1], what: "the name", command: command), seconds: seconds, radiusMeters: radius,
                replacing: replacing)
        case "rename":
            guard words.count == 3 else { throw UsageError("place rename needs the old name and the new one", command: command) }
            return .place(
                .rename(
                    try placeName(words[1], what: "the old name", command: command),
                    to: try placeName(words[2], what: "the new name", command: command)))
        case "remove":
            guard words.count == 2 else { throw UsageError("place remove needs one name", command: command) }
            return .place(.remove(try placeName(words[1], what: "the name", command: command)))
        default:
            throw UsageError(
                "place takes list, add NAME COORDINATE, mark NAME, rename NAME NEW or remove NAME, not '\(action)'",
                command: command)
        }
    }

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

    /// The one optional positional of `buzz` and `calibrate`, one of the wire names.
    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ arguments: Arguments, default fallback: Choice, what: String, command: String
    ) throws(UsageError) -> Choice where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        switch arguments.positionals.count {
        case 0: return fallback
        case 1:
            guard let value = Choice(rawValue: arguments.positionals[0]) else {
                throw UsageError("unknown \(what) '\(arguments.positionals[0])' (one of: \(names))", command: command)
            }
            return value
        default:
            throw UsageError("\(command) takes one \(what) (one of: \(names))", command: command)
        }
    }
}
