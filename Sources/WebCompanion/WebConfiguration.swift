import CommandLineSupport
import SystemSupport

/// waypoint-web's settings: its config file (`/etc/waypointd/waypoint-web.conf`, documented
/// key by key in `config/waypoint-web.conf` and waypoint-web(8)), then the command line's
/// options over it. The file's lines are read as waypointd's are (`ConfigurationLine`); every
/// problem is reported as `file:line: message`, not only the first.
public struct WebConfiguration: Sendable, Equatable {
    /// The default config file; a missing one means the defaults.
    public static let defaultPath = "/etc/waypointd/waypoint-web.conf"
    /// The largest config file read.
    public static let maximumFileBytes = 64 * 1024

    public var listen = ListenAddress.standard
    /// Other names the page is reached by (`waypoint.local`), for the `Host` check.
    public var hostNames: [String] = []
    public var socketPath = "/run/waypointd/control.sock"
    public var stateDirectory = "/var/lib/waypoint-web"
    /// The page's files; nil: `../share/waypoint-web` beside the program (`/usr/bin` →
    /// `/usr/share/waypoint-web`, `/usr/local/bin` → `/usr/local/share/waypoint-web`).
    public var pageDirectory: String?
    public var leafletDirectory = "/usr/share/javascript/leaflet"
    /// An MBTiles file of map tiles; nil: the phone fetches OpenStreetMap's.
    public var tilesPath: String?
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// How long a paired phone stays paired, days.
    public var sessionDays = 30
    public static let sessionDaysRange = 1...365

    /// The defaults.
    public init() {}

    /// Reads a config file's text over the defaults.
    /// - Throws: every problem, one `file:line: message` each.
    public static func parse(_ text: String, fileName: String) throws(ConfigurationProblems) -> WebConfiguration {
        var configuration = WebConfiguration()
        var problems: [String] = []
        var seen: [String: Int] = [:]
        let keys = ["listen", "host-names", "socket", "state-dir", "page-dir", "leaflet-dir", "tiles", "tls-certificate", "tls-key", "session-days"]
        for (index, line) in ConfigurationLine.body(of: text).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard let entry = ConfigurationLine.entry(in: line) else { continue }
            let key = String(entry.key)
            func report(_ message: String) { problems.append("\(fileName):\(index + 1): " + TextEscaping.escaped(message)) }
            guard keys.contains(key) else {
                let suggestion = EditDistance.didYouMean(Array(EditDistance.suggestions(for: key, among: keys).prefix(1)))
                report("unknown key '\(key)'" + (suggestion.map { "; \($0)" } ?? ""))
                continue
            }
            if let first = seen[key] {
                report("'\(key)' was set already on line \(first)")
                continue
            }
            seen[key] = index + 1
            guard let value = entry.value.map(String.init) else {
                report("missing value for '\(key)'")
                continue
            }
            if let problem = configuration.set(key, value) { report(problem) }
        }
        if (configuration.tlsCertificatePath == nil) != (configuration.tlsKeyPath == nil) {
            problems.append(TextEscaping.escaped(fileName) + ": tls-certificate and tls-key go together: give both, or neither for plain HTTP")
        }
        guard problems.isEmpty else { throw ConfigurationProblems(lines: problems) }
        return configuration
    }

    /// Sets one key from its text; the problem, if any.
    mutating func set(_ key: String, _ value: String) -> String? {
        switch key {
        case "listen":
            var reason = ""
            guard let address = ListenAddress(value, reason: &reason) else { return "listen '\(value)': \(reason)" }
            listen = address
        case "host-names":
            let names = value.split(separator: ",").map(String.init)
            guard let bad = names.first(where: { !Self.isHostName($0) }) else {
                hostNames = names
                return nil
            }
            return "host-names: '\(bad)' is not a host name (letters, digits, '-' and '.', comma-separated without spaces)"
        case "socket": socketPath = value
        case "state-dir": stateDirectory = value
        case "page-dir": pageDirectory = value
        case "leaflet-dir": leafletDirectory = value
        case "tiles": tilesPath = value
        case "tls-certificate": tlsCertificatePath = value
        case "tls-key": tlsKeyPath = value
        case "session-days":
            guard let days = Int(value), Self.sessionDaysRange.contains(days) else {
                return "session-days '\(value)' is not a whole number of days from 1 to 365"
            }
            sessionDays = days
        default: preconditionFailure("a key without a meaning: \(key)")
        }
        return nil
    }

    static func isHostName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 253
            && name.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// The file at `path` over the defaults; a missing file is the defaults when `mayBeMissing`.
    public static func load(path: String, mayBeMissing: Bool) throws(ConfigurationProblems) -> WebConfiguration {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: maximumFileBytes, followingLinks: true)
        } catch {
            if error == .missing && mayBeMissing { return WebConfiguration() }
            throw ConfigurationProblems(lines: [TextEscaping.escaped("cannot read the config file \(path): \(error)")])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationProblems(lines: [TextEscaping.escaped("\(path): is not UTF-8 text")])
        }
        return try parse(text, fileName: path)
    }
}

/// A config file's problems, one `file:line: message` a line.
public struct ConfigurationProblems: Error, Sendable, CustomStringConvertible {
    public let lines: [String]
    public var description: String { lines.joined(separator: "\n") }
}
