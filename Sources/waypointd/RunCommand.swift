@preconcurrency import Glibc
import CommandLineSupport
import Daemon
import Geodesy
import LocationIntake
import SystemSupport

/// `waypointd [--config PATH] [--simulate [--simulate-events FILE] [--simulate-speed N] [--simulate-at PLACE]]
/// [--socket PATH] [--state-dir DIR] [--sysfs-root DIR] [--record FILE] [--log-level LEVEL]`:
/// runs the daemon in the foreground.
enum RunCommand {
    /// The fastest `--simulate-speed`: at 50 samples a second of the world's time, 20 times as
    /// fast is a thousand reads a real second, as much as a debug build keeps up with.
    static let maximumSimulationSpeed = 20.0

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words,
            valueOptions: [
                "--config", "--socket", "--state-dir", "--record", "--simulate-events", "--simulate-speed", "--sysfs-root",
                "--log-level", "--simulate-at",
            ],
            flagOptions: ["--simulate"], command: nil)
        try arguments.expectNoPositionals()
        var options = DaemonOptions()
        options.simulate = arguments.has("--simulate")
        options.configPath = try arguments.nonEmptyValue("--config", what: "a path")
        options.socketPath = try arguments.nonEmptyValue("--socket", what: "a path")
        options.stateDirectory = try arguments.nonEmptyValue("--state-dir", what: "a directory")
        options.recordPath = try arguments.nonEmptyValue("--record", what: "a file")
        options.simulationEventsPath = try arguments.nonEmptyValue("--simulate-events", what: "a file")
        options.sysfsRoot = try arguments.nonEmptyValue("--sysfs-root", what: "a directory")
        if let name = arguments.value("--log-level") {
            guard let level = Logger.Level(name: name) else {
                throw UsageError("--log-level takes trace, debug, info, notice, warning, error or critical")
            }
            options.logLevel = level
        }
        if options.simulationEventsPath != nil, !options.simulate {
            throw UsageError("--simulate-events only applies with --simulate")
        }
        if let text = arguments.value("--simulate-at") {
            guard options.simulate else { throw UsageError("--simulate-at only applies with --simulate") }
            do throws(LocationError) {
                options.simulationStart = try LocationParser.parse(text).coordinate
            } catch {
                throw UsageError("--simulate-at: \(error)")
            }
        }
        if let text = arguments.value("--simulate-speed") {
            guard options.simulate else { throw UsageError("--simulate-speed only applies with --simulate") }
            guard let speed = Double(text), speed >= 1, speed <= Self.maximumSimulationSpeed else {
                throw UsageError("--simulate-speed '\(text)' is not a number from 1 to \(Int(Self.maximumSimulationSpeed))")
            }
            options.simulationSpeed = speed
        }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try PrintConfigCommand.load(options.configPath)
        } catch {
            fputs("\(error)\n", stderr)
            return .configuration
        }
        return await WaypointDaemon.run(options, configuration: configuration)
    }
}
