// waypointd: the navigation daemon. This release holds its gpsd client (`waypointd gps`); the
// daemon itself, its configuration and the other subcommands come with the daemon issue
// (DESIGN.md §4).
@preconcurrency import Glibc
import ControlProtocol
import GPSClient

let help = """
    usage: waypointd gps [--server HOST:PORT] [--count N]   print fixes from gpsd, one JSON object a line
           waypointd replay FILE                             run the pipeline over a recording, JSON lines out
           waypointd motor-test [--pattern NAME] [--repeat] [MOTOR OPTIONS]   play a pattern on the motor
           waypointd motor-off [MOTOR OPTIONS]               force the motor off (systemd's ExecStopPost)
           waypointd --print-config [--config PATH]          the configuration in effect (exit 78 if invalid)
           waypointd --version | --help

    waypointd guides a walker to a destination through a vibration motor. This build holds
    the navigation math, the offline tools of waypointctl, the gpsd client and the motor
    driver; the daemon itself, its configuration and its other subcommands are not in it yet.
    'waypointd COMMAND --help' describes each command.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--version":
    print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
case "--help", "-h":
    print(help)
case "--print-config":
    exit(PrintConfigCommand.run(Array(arguments.dropFirst())))
case "gps":
    exit(await GPSCommand.run(Array(arguments.dropFirst())))
case "replay":
    exit(ReplayCommand.run(Array(arguments.dropFirst())))
case "motor-test", "motor-off":
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(MotorCommands.help)
    } else if arguments.first == "motor-off" {
        exit(MotorCommands.motorOff(rest))
    } else {
        exit(await MotorCommands.motorTest(rest))
    }
default:
    fputs("waypointd: this build cannot run the daemon yet; see 'waypointd --help'\n", stderr)
    exit(64)
}
