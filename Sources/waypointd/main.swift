// waypointd: the navigation daemon. This release carries only its identity; the daemon itself,
// its configuration and subcommands come with the daemon issue (DESIGN.md §4).
@preconcurrency import Glibc
import ControlProtocol
import GPSClient

let help = """
    usage: waypointd --version | --help

    waypointd guides a walker to a destination through a vibration motor. This build holds
    the navigation math and the offline tools of waypointctl (bearing, declination); the
    daemon, its configuration and its subcommands are not in it yet.
    """

switch Array(CommandLine.arguments.dropFirst()) {
case ["--version"]:
    print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
case ["--help"], ["-h"]:
    print(help)
default:
    fputs("waypointd: this build cannot run the daemon yet; see 'waypointd --help'\n", stderr)
    exit(64)
}
