@preconcurrency import Glibc
import CommandLineSupport
import SystemSupport
import WebCompanion

/// The configuration every command starts from: the file (`--config`, else the default one if
/// it exists), then the options given over it.
enum CommonOptions {
    /// Nil when the file is wrong, which was said (exit 78).
    static func configuration(_ arguments: Arguments) -> WebConfiguration? {
        let path = arguments.value("--config")
        do throws(ConfigurationProblems) {
            var configuration = try WebConfiguration.load(path: path ?? WebConfiguration.defaultPath, mayBeMissing: path == nil)
            if let directory = arguments.value("--state-dir") { configuration.stateDirectory = directory }
            return configuration
        } catch {
            // One `file:line: message` a line, each escaped once by the parser.
            for line in error.lines { fputs("waypoint-web: \(line)\n", stderr) }
            return nil
        }
    }

    static func fail(_ message: String) {
        fputs("waypoint-web: \(TextEscaping.escaped(message))\n", stderr)
    }

    /// POSIX seconds now.
    static func wallSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Monotonic seconds now.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
