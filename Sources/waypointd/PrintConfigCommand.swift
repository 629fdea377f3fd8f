@preconcurrency import Glibc
import CommandLineSupport
import Daemon

/// `waypointd --print-config [--config PATH]`: the configuration in effect, in the file's own
/// format; a bad file is reported as `file:line: message` with exit status 78 (EX_CONFIG).
enum PrintConfigCommand {
    /// Where the daemon reads its configuration unless told otherwise.
    static let defaultPath = "/etc/waypointd/waypointd.conf"

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--config"], command: nil)
        try arguments.expectNoPositionals()
        let path = try arguments.nonEmptyValue("--config", what: "a path")
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try load(path)
        } catch {
            fputs("\(error)\n", stderr)
            return .configuration
        }
        print(configuration.printed, terminator: configuration.printed.hasSuffix("\n") ? "" : "\n")
        return .success
    }

    /// The configuration at `path`; with no path given, a missing default file means the
    /// compiled-in defaults (a fresh install need not have one).
    static func load(_ path: String?) throws(ConfigurationError) -> Configuration {
        do throws(ConfigurationError) {
            return try Configuration.load(path: path ?? defaultPath)
        } catch {
            if case .missing = error, path == nil { return Configuration() }
            throw error
        }
    }
}
