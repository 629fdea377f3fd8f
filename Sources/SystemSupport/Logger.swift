/// A logger passed around as a value: a label, a minimum level and a handler. Messages are
/// short constant sentences; the details go in metadata (`gps.server`, `i2c.address`), so logs
/// stay greppable and tests can check fields rather than prose.
public struct Logger: Sendable {
    /// Severity, as syslog and journald order them.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case trace, debug, info, notice, warning, error, critical

        /// The lowercase name, as in the config file.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }

        /// The level for a name, or nil.
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Key-value details of one message.
    public typealias Metadata = [String: String]

    /// Where a message goes.
    public let label: String
    /// Messages below this level are dropped before any formatting.
    public var level: Level
    private let handler: any LogHandler

    /// A logger writing to `handler`.
    public init(label: String, level: Level = .info, handler: any LogHandler) {
        self.label = label
        self.level = level
        self.handler = handler
    }

    /// Logs a message; `metadata` is built only when the level passes.
    public func log(_ level: Level, _ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        guard level >= self.level else { return }
        handler.write(LogRecord(level: level, label: label, message: message(), metadata: metadata()))
    }

    public func debug(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.debug, message(), metadata())
    }
    public func info(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.info, message(), metadata())
    }
    public func notice(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.notice, message(), metadata())
    }
    public func warning(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.warning, message(), metadata())
    }
    public func error(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> Metadata = [:]) {
        log(.error, message(), metadata())
    }
}

/// One message, as a handler receives it.
public struct LogRecord: Sendable, Equatable {
    public var level: Logger.Level
    public var label: String
    public var message: String
    public var metadata: Logger.Metadata
}

/// A destination for log records.
public protocol LogHandler: Sendable {
    /// Writes one record; must not block for long (it may run on a hot path).
    func write(_ record: LogRecord)
}
