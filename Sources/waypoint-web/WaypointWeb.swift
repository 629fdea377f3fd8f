@preconcurrency import Glibc
import CommandLineSupport
import ControlProtocol
import SystemSupport

/// The companion's program: picks the command and turns its outcome into an exit status.
enum WaypointWeb {
    static let help = """
        usage: waypoint-web [--config FILE] [--listen HOST:PORT] [--socket PATH] [--state-dir DIR] [--page-dir DIR]
                                                          serve the companion page (foreground, systemd-friendly)
               waypoint-web pair [--listen HOST:PORT] [--state-dir DIR] [--config FILE] [--json]
                                                          a one-time pairing link (10 minutes, one use) and its QR code
               waypoint-web token [--name NAME] [--state-dir DIR] [--config FILE] [--json]
                                                          a bearer token for scripts (Authorization: Bearer TOKEN)
               waypoint-web sessions [--state-dir DIR] [--config FILE] [--json]   the paired phones and tokens
               waypoint-web revoke ID [--state-dir DIR] [--config FILE]           end a session
               waypoint-web --version | --help

        waypoint-web serves a page for the wearer's phone (or their helper's): the live compass, one
        box that takes a shared map link, plus code, coordinates or a search, places, routes and the
        trail. It talks to waypointd only through its control socket. Every request but the page's
        files and pairing needs a session: run 'waypoint-web pair' on the Pi and open the link on the
        phone. Run the session commands as the service's user (sudo -u waypoint-web …) or as root:
        what they write belongs to the service's user either way. Defaults come from
        /etc/waypointd/waypoint-web.conf.
        """

    /// The signals `command` (the first argument) takes: serving takes SIGTERM and SIGINT, which
    /// ``main.swift`` blocks before any thread starts (``SignalStream/block(_:)``).
    static func signalsTaken(by command: String?) -> [Int32] {
        command == nil || command!.hasPrefix("--") ? ServeCommand.signalsTaken : []
    }

    /// Runs one invocation.
    /// - Parameter arguments: The arguments after the program name.
    static func run(_ arguments: [String]) async -> ExitStatus {
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch arguments.first {
            case "--version":
                print("waypoint-web \(Release.version)")
                return .success
            case "--help", "-h":
                print(help)
                return .success
            case "pair": return try SessionCommands.pair(rest)
            case "token": return try SessionCommands.token(rest)
            case "sessions": return try SessionCommands.sessions(rest)
            case "revoke": return try SessionCommands.revoke(rest)
            case let first where first == nil || first!.hasPrefix("--"):
                return try await ServeCommand.run(arguments)
            default:
                throw UsageError.unknownCommand(arguments[0], among: ["pair", "token", "sessions", "revoke", "--version", "--help"])
            }
        } catch {
            fputs("waypoint-web: \(error.message)\n\(error.hint(program: "waypoint-web"))\n", stderr)
            return .usage
        }
    }
}
