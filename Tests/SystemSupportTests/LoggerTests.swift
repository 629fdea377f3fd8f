import Synchronization
import Testing

@testable import SystemSupport

/// Keeps records in memory, for tests.
final class MemoryLogHandler: LogHandler {
    let records = Mutex<[LogRecord]>([])
    func write(_ record: LogRecord) { records.withLock { $0.append(record) } }
}

@Suite("Logging")
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

    @Test("without systemd's variables there is no watchdog and no activated socket")
    func notifier() {
        let notifier = SystemdNotifier(environment: [:])
        notifier.ready(status: "test")
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.listenFileDescriptors().isEmpty)
    }
}
