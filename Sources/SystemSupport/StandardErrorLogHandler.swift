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

    /// The most of one message or metadata value a line carries, bytes; the rest is cut and
    /// marked `…`, so no value (a client's name, a file's contents) can make a line unbounded.
    public static let maximumValueBytes = 1024

    /// `<6>gps: connected gps.server=127.0.0.1:2947`.
    ///
    /// The message and every value are escaped: a newline, any other control character, a quote
    /// or a backslash from a client could otherwise end the line and start a forged one, with a
    /// `<0>` priority of its own, in the journal.
    public static func format(_ record: LogRecord, withPriority: Bool) -> String {
        let details = record.metadata.sorted { $0.key < $1.key }
            .map { key, value in
                let text = TextEscaping.escaped(value, maximumBytes: maximumValueBytes)
                return text.contains(" ") || text.contains("\"") ? "\(key)=\"\(text)\"" : "\(key)=\(text)"
            }
            .joined(separator: " ")
        let prefix = withPriority ? "<\(syslogPriority(record.level))>" : ""
        return prefix + record.label + ": " + TextEscaping.escaped(record.message, maximumBytes: maximumValueBytes) + (details.isEmpty ? "" : " " + details)
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
