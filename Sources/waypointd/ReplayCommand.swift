@preconcurrency import Glibc
import Daemon
import SystemSupport

/// `waypointd replay FILE`.
enum ReplayCommand {
    static let help = """
        usage: waypointd replay FILE [--config PATH]

        Runs the navigation pipeline, set up by the config file the run used (default: the
        compiled-in settings), over a recording (JSON Lines, see the README) and prints one
        JSON object per IMU sample: {"t","state","heading","bearing","distance","error",
        "intensity","sharpness"} (true heading in degrees; null where unknown). Deterministic:
        the magnetic model is evaluated at the recorded fixes' dates. A line that cannot be read
        is reported on standard error with its number and skipped; the exit status is then 1.
        """

    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            print(help)
            return 0
        }
        var files: [String] = []
        var configPath: String?
        var index = 0
        while index < words.count {
            if words[index] == "--config" {
                guard index + 1 < words.count else { return usage("--config needs a path") }
                configPath = words[index + 1]
                index += 2
            } else if words[index].hasPrefix("-"), words[index] != "-" {
                return usage("unknown option '\(words[index])'")
            } else {
                files.append(words[index])
                index += 1
            }
        }
        guard files.count == 1, let file = files.first else { return usage("replay needs exactly one FILE") }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try PrintConfigCommand.load(configPath)
        } catch {
            fputs("\(error)\n", stderr)
            return 78
        }
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(
                ofRegularFile: file, maximumBytes: Replay.maximumRecordingBytes, followingLinks: true)
        } catch {
            return cannotRead(file, "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return cannotRead(file, "not UTF-8 text") }
        let errors = Replay.run(text, configuration: configuration) { print($0) }
        for error in errors { fputs("waypointd: \(file): \(error)\n", stderr) }
        return errors.isEmpty ? 0 : 1
    }

    /// Exit status 66 (EX_NOINPUT) for a recording that cannot be read, and why.
    private static func cannotRead(_ file: String, _ reason: String) -> Int32 {
        fputs("waypointd: cannot read \(file): \(reason)\n", stderr)
        return 66
    }

    private static func usage(_ message: String) -> Int32 {
        fputs("waypointd: \(message)\nTry 'waypointd replay --help'.\n", stderr)
        return 64
    }
}
