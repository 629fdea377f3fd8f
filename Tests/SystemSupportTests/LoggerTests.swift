import Synchronization
import Testing

@testable import SystemSupport

/// Keeps records in memory, for tests.
final class MemoryLogHandler: LogHandler {
    let records = Mutex<[LogRecord]>([])
    func write(_ record: LogRecord) { records.withLock { $0.append(record) } }
}

@Suite("Logging", .timeLimit(.minutes(5)))
struct LoggerTests {
    @Test("levels filter before formatting; records carry label, message and metadata")
    func filtering() {
        let handler = MemoryLogHandler()
        let logger = Logger(label: "gps", level: .notice, handler: handler)
        var built = 0
        logger.info("connected", { built += 1; return ["gps.server": "x"] }())
        logger.warning("lost the connection", ["gps.server": "127.0.0.1:2947"])
        #expect(built == 0, "metadata below the level is never built")
        #expect(handler.records.withLock { $0 } == [
            LogRecord(level: .warning, label: "gps", message: "lost the connection", metadata: ["gps.server": "127.0.0.1:2947"])
        ])
        #expect(Logger.Level(name: "debug") == .debug)
        #expect(Logger.Level(name: "loud") == nil)
    }

    @Test("journald priorities and stable metadata order")
    func format() {
        let record = LogRecord(level: .error, label: "imu", message: "device fault", metadata: ["i2c.bus": "1", "i2c.address": "0x1C", "why": "no ack"])
        #expect(StandardErrorLogHandler.format(record, withPriority: true) == #"<3>imu: device fault i2c.address=0x1C i2c.bus=1 why="no ack""#)
        #expect(StandardErrorLogHandler.format(record, withPriority: false) == #"imu: device fault i2c.address=0x1C i2c.bus=1 why="no ack""#)
    }

    @Test("a client's text cannot forge a log line: control characters, quotes and backslashes are escaped, values are bounded")
    func escaping() {
        let forged = LogRecord(
            level: .info, label: "waypointd", message: "destination\rset",
            metadata: ["name": "x\n<0>waypointd: FORGED", "quote": #"a "b" \c"#, "bell": "\u{7}\u{7F}"])
        let line = StandardErrorLogHandler.format(forged, withPriority: true)
        #expect(!line.contains("\n") && !line.contains("\r") && !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(line == #"<6>waypointd: destination\rset bell=\u{07}\u{7F} name="x\n<0>waypointd: FORGED" quote="a \"b\" \\c""#)
        let long = LogRecord(level: .info, label: "x", message: "m", metadata: ["v": String(repeating: "a", count: 100_000)])
        let bounded = StandardErrorLogHandler.format(long, withPriority: false)
        #expect(bounded.utf8.count <= StandardErrorLogHandler.maximumValueBytes + 16, "\(bounded.utf8.count) bytes")
        #expect(bounded.hasSuffix("…"))
    }

    @Test("without systemd's variables there is no watchdog and no activated socket")
    func notifier() {
        let notifier = SystemdNotifier(environment: [:])
        notifier.ready(status: "test")
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.listenFileDescriptors().isEmpty)
    }
}
