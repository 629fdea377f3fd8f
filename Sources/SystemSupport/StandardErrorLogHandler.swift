@preconcurrency import Glibc

/// Writes records to standard error, one line each, prefixed with the syslog priority in
/// angle brackets (`<6>` for info), which journald turns into the message's priority. Under
/// a terminal the prefix is left out.
public struct StandardErrorLogHandler: LogHandler {
    private let withPriority: Bool

    /// A handler; `withPriority` defaults to "standard error is not a terminal".
    public init(withPriority: Bool = isatty(STDERR_FILENO) == 0) { self.withPriority = withPriority }

    public func write(_ record: LogRecord) {
        fputs(Self.format(record, withPriority: withPriority) + "\n", stderr)
    }

    /// `<6>gps: connected gps.server=127.0.0.1:2947`.
    public static func format(_ record: LogRecord, withPriority: Bool) -> String {
        let details = record.metadata.sorted { $0.key < $1.key }
            .map { key, value in value.contains(" ") ? "\(key)=\"\(value)\"" : "\(key)=\(value)" }
            .joined(separator: " ")
        let prefix = withPriority ? "<\(syslogPriority(record.level))>" : ""
        return prefix + record.label + ": " + record.message + (details.isEmpty ? "" : " " + details)
    }

    /// sd-daemon(3)'s priorities: 7 debug … 2 critical.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
