@preconcurrency import Glibc
import CommandLineSupport
import ControlProtocol
import Daemon
import GPSClient
import SystemSupport

/// The daemon's program: picks the command and turns its outcome into an exit status.
enum Waypointd {
    static let help = """
        usage: waypointd [--config PATH] [--simulate [--simulate-events FILE] [--simulate-speed N] [--simulate-at PLACE]]
                         [--socket PATH] [--state-dir DIR] [--sysfs-root DIR] [--record FILE] [--log-level LEVEL]
                                                                 run the daemon (foreground, systemd-friendly)
               waypointd check [--config PATH] [--state-dir DIR] [--sysfs-root DIR] [--dev-dir DIR] [--gps-timeout SECONDS]
                                                                 diagnose config, PWM, I2C, IMU, gpsd; 1 on a problem
               waypointd gps [--server HOST:PORT] [--count N]   print fixes from gpsd, one JSON object a line
               waypointd replay FILE [--config PATH]             run the pipeline over a recording, JSON lines out
               waypointd map import FILE.osm.pbf [--state-dir DIR]   build the offline place index
               waypointd map info [--state-dir DIR]              the place index loaded
               waypointd motor-test [--pattern NAME] [--repeat] [MOTOR-OPTIONS]   play a pattern on the motor
               waypointd motor-off [--force] [MOTOR-OPTIONS]     force the motor off (systemd's ExecStopPost)
               waypointd --print-config [--config PATH]          the configuration in effect (exit 78 if invalid)
               waypointd --version | --help

        waypointd guides a walker to a destination through a vibration motor: it reads fixes from
        gpsd and the compass over I2C, and pulses the motor while the wearer faces the destination.
        --simulate runs it on a simulated board and walker, with no hardware; --simulate-events
        FILE makes that world misbehave on cue ("12 gps-off", "28 magnet 15", "40 imu-off",
        "50 stall 2", "90 stray 60", "100 press long", one a line; see the README); --simulate-speed N runs that
        world and the daemon's clock N times faster (1 to 20); --simulate-at PLACE stands the
        simulated wearer there (inside an imported map, for walks). The destination is set over the control
        socket (default /run/waypointd/control.sock).
        'waypointd COMMAND --help' describes each command.
        """

    /// The signals `command` (the first argument) takes; ``main.swift`` blocks them before any
    /// thread starts (``SignalStream/block(_:)``), so that none sent in the first instant is lost.
    static func signalsTaken(by command: String?) -> [Int32] {
        switch command {
        case "motor-test": MotorCommands.signalsTaken
        case "map": MapCommand.signalsTaken
        case let first where first == nil || first!.hasPrefix("--"): WaypointDaemon.signalsTaken
        default: []
        }
    }

    /// Runs one invocation.
    /// - Parameter arguments: The arguments after the program name.
    static func run(_ arguments: [String]) async -> ExitStatus {
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch arguments.first {
            case "--version":
                print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
                return .success
            case "--help", "-h":
                print(help)
                return .success
            case "--print-config": return try PrintConfigCommand.run(rest)
            case "check": return try await CheckCommand.run(rest)
            case "gps": return try await GPSCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "map": return try MapCommand.run(rest)
            case "motor-test", "motor-off":
                if rest.contains("--help") || rest.contains("-h") {
                    print(MotorCommands.help)
                    return .success
                }
                return arguments.first == "motor-off" ? try MotorCommands.motorOff(rest) : try await MotorCommands.motorTest(rest)
            case let first where first == nil || first!.hasPrefix("--"):
                return try await RunCommand.run(arguments)
            default:
                throw UsageError.unknownCommand(
                    arguments[0], among: ["check", "gps", "replay", "motor-test", "motor-off", "--print-config", "--version", "--help"])
            }
        } catch {
            fputs("waypointd: \(error.message)\n\(error.hint(program: "waypointd"))\n", stderr)
            return .usage
        }
    }
}
