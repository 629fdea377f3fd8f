// waypointd: the navigation daemon. This release holds its gpsd client (`waypointd gps`); the
// daemon itself, its configuration and the other subcommands come with the daemon issue
// (DESIGN.md §4).
@preconcurrency import Glibc
import ControlProtocol
import GPSClient

let help = """
    usage: waypointd gps [--server HOST:PORT] [--count N]   print fixes from gpsd, one JSON object a line
           waypointd --version | --help

    waypointd guides a walker to a destination through a vibration motor. This build holds
    the navigation math, the offline tools of waypointctl and the gpsd client; the daemon
    itself, its configuration and its other subcommands are not in it yet.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--version":
    print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
case "--help", "-h":
    print(help)
case "gps":
    exit(await GPSCommand.run(Array(arguments.dropFirst())))
default:
    fputs("waypointd: this build cannot run the daemon yet; see 'waypointd --help'\n", stderr)
    exit(64)
}
