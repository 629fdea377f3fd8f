// waypointd: the navigation daemon and its subcommands (DESIGN.md §4).
@preconcurrency import Glibc
import ControlProtocol
import GPSClient

let help = """
    usage: waypointd [--config PATH] [--simulate] [--socket PATH] [--state-dir DIR] [--sysfs-root DIR]
                     [--record FILE] [--log-level LEVEL]  run the daemon (foreground, systemd-friendly)
           waypointd check [--config PATH] [--sysfs-root DIR] [...]   diagnose config, gpsd, I2C, PWM; 1 on a problem
           waypointd gps [--server HOST:PORT] [--count N]   print fixes from gpsd, one JSON object a line
           waypointd replay FILE                             run the pipeline over a recording, JSON lines out
           waypointd motor-test [--pattern NAME] [--repeat] [MOTOR OPTIONS]   play a pattern on the motor
           waypointd motor-off [MOTOR OPTIONS]               force the motor off (systemd's ExecStopPost)
           waypointd --print-config [--config PATH]          the configuration in effect (exit 78 if invalid)
           waypointd --version | --help

    waypointd guides a walker to a destination through a vibration motor: it reads fixes from
    gpsd and the compass over I2C, and pulses the motor while the wearer faces the destination.
    --simulate runs it on a simulated board and walker, with no hardware. The destination is
    set over the control socket (default /run/waypointd/control.sock).
    'waypointd COMMAND --help' describes each command.
    """

// A file size limit (systemd's LimitFSIZE=, ulimit -f) must make a save fail with EFBIG, which
// the state store handles by keeping the previous file, rather than kill the daemon mid-guidance.
signal(SIGXFSZ, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--version":
    print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
case "--help", "-h":
    print(help)
case "--print-config":
    exit(PrintConfigCommand.run(Array(arguments.dropFirst())))
case "check":
    exit(await CheckCommand.run(Array(arguments.dropFirst())))
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
case let first where first == nil || first!.hasPrefix("--"):
    exit(await DaemonCommand.run(arguments))
default:
    fputs("waypointd: unknown command '\(arguments[0])'\nTry 'waypointd --help'.\n", stderr)
    exit(64)
}
