@preconcurrency import Glibc
import Daemon
import SystemSupport

/// `waypointd [--config PATH] [--simulate] [--socket PATH] [--state-dir DIR] [--sysfs-root DIR]
/// [--record FILE] [--log-level LEVEL] [--simulate-events FILE]`: runs the daemon in the foreground.
enum DaemonCommand {
    static func run(_ words: [String]) async -> Int32 {
        var options = DaemonOptions()
        var index = 0
        func fail(_ message: String) -> Int32 {
            fputs("waypointd: \(message)\nTry 'waypointd --help'.\n", stderr)
            return 64
        }
        while index < words.count {
            let word = words[index]
            index += 1
            func value() -> String? {
                guard index < words.count else { return nil }
                index += 1
                return words[index - 1]
            }
            switch word {
            case "--simulate": options.simulate = true
            case "--config": guard let v = value() else { return fail("--config needs a path") }; options.configPath = v
            case "--socket": guard let v = value() else { return fail("--socket needs a path") }; options.socketPath = v
            case "--state-dir": guard let v = value() else { return fail("--state-dir needs a directory") }; options.stateDirectory = v
            case "--record": guard let v = value() else { return fail("--record needs a file") }; options.recordPath = v
            case "--simulate-events":
                guard let v = value() else { return fail("--simulate-events needs a file") }
                options.simulationEventsPath = v
            case "--sysfs-root": guard let v = value() else { return fail("--sysfs-root needs a directory") }; options.sysfsRoot = v
            case "--log-level":
                guard let v = value(), let level = Logger.Level(name: v) else {
                    return fail("--log-level takes trace, debug, info, notice, warning, error or critical")
                }
                options.logLevel = level
            default:
                return fail("unknown argument '\(word)'")
            }
        }
        if options.simulationEventsPath != nil, !options.simulate {
            return fail("--simulate-events only applies with --simulate")
        }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try PrintConfigCommand.load(options.configPath)
        } catch {
            fputs("\(error)\n", stderr)
            return 78
        }
        return await WaypointDaemon.run(options, configuration: configuration)
    }
}
