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

    /// The names of the daemon commands, in the order the help lists them.
    static let names = ["go", "clear", "status", "watch", "recent", "mute", "buzz", "calibrate"]

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
        }
    }

    /// Reads a daemon command's arguments.
    /// - Parameters:
    ///   - name: The command, one of ``names``.
    ///   - words: The arguments after it.
    /// - Returns: The command, and `--socket`'s value when given after the command.
    /// - Throws: `UsageError` naming what is wrong.
    static func parse(name: String, words: [String]) throws(UsageError) -> (command: DaemonCommand, socket: String?) {
        let socketOption = "--socket"
        switch name {
        case "go":
            let arguments = try Arguments(
                words, valueOptions: ["--name", "--recent", socketOption], command: name)
            return (try parseGo(arguments), arguments.value(socketOption))
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
            throw UsageError("'\(text)': \(error)", command: name)
        }
        do throws(PlaceNameError) {
            return .go(coordinate, name: try PlaceName.validated(arguments.value("--name")))
        } catch {
            throw UsageError("--name: \(error)", command: name)
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
