@preconcurrency import Glibc
import Daemon

/// `waypointd --print-config [--config PATH]`: the configuration in effect, in the file's own
/// format; a bad file is reported as `file:line: message` with exit status 78 (EX_CONFIG).
enum PrintConfigCommand {
    /// Where the daemon reads its configuration unless told otherwise.
    static let defaultPath = "/etc/waypointd/waypointd.conf"

    static func run(_ words: [String]) -> Int32 {
        var path: String?
        var index = 0
        while index < words.count {
            switch words[index] {
            case "--config" where index + 1 < words.count:
                path = words[index + 1]
                index += 2
            default:
                fputs("waypointd: unknown argument '\(words[index])' for --print-config\nTry 'waypointd --help'.\n", stderr)
                return 64
            }
        }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try load(path)
        } catch {
            fputs("\(error)\n", stderr)
            return 78
        }
        print(configuration.printed, terminator: configuration.printed.hasSuffix("\n") ? "" : "\n")
        return 0
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
