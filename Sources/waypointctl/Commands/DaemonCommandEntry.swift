import CommandLineSupport
import ControlProtocol
import TextFormats

/// One row of waypointctl's command table: a command that asks the daemon, with everything about
/// it in one place: its lines in the overview, its help, its options and how its arguments
/// become a ``DaemonCommand``. One file each (`DaemonCommandEntry+Go.swift`, …), listed in
/// ``DaemonCommand/table``; a test checks the table against the protocol's commands.
struct DaemonCommandEntry: Sendable {
    /// The command's name, as typed and as the protocol's `cmd`.
    let name: String
    /// Its lines under "Guiding" in `waypointctl --help`, indented two spaces.
    let overview: String
    /// `waypointctl NAME --help`.
    let help: String
    /// The options that take a value, and the flags; `--socket` goes with every command.
    let valueOptions: [String]
    let flagOptions: [String]
    /// The words its first argument may be (`on`, `off`; a route's actions), for completion.
    var words: [String] = []
    /// The command from its arguments; `now` is the time, POSIX seconds (`--since 30m`).
    let parse: @Sendable (_ arguments: Arguments, _ now: Double) throws(UsageError) -> DaemonCommand

    /// The option every daemon command takes.
    static let socketOptionName = "--socket"

    /// The line every daemon command's help ends with.
    static let socketOption = """
        --socket PATH  the daemon's control socket (default: $WAYPOINT_SOCKET if set,
                       else \(SocketPath.defaultPath))
        """

    /// A name typed on the command line, checked by the protocol's rules.
    static func placeName(_ text: String, what: String, command: String) throws(UsageError) -> String {
        let name: String?
        do throws(PlaceNameError) {
            name = try PlaceName.validated(text)
        } catch {
            throw UsageError("\(what): \(error)", command: command)
        }
        guard let name else { throw UsageError("\(what) is empty", command: command) }
        return name
    }

    /// The one optional positional of `buzz` and `calibrate`, one of the wire names.
    static func choice<Choice: RawRepresentable & CaseIterable>(
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
