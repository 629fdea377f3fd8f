import ControlProtocol
import Foundation
import TestSupport
import Testing

@testable import waypointctl

/// `watch` on a real terminal: the binary's standard output is a pseudo-terminal this test owns,
/// so it draws the compass, and on SIGINT must leave the terminal as it found it.
@Suite("watch on a terminal", .timeLimit(.minutes(5)))
struct WatchTerminalTests {
    /// A pseudo-terminal pair: the test reads the master, the program writes the slave.
    struct PseudoTerminal {
        let master: Int32
        let slavePath: String

        /// `TIOCGPTN`, `_IOR('T', 0x30, unsigned int)`: the slave's number. Swift's Glibc module
        /// declares neither `posix_openpt`/`unlockpt`/`ptsname` (they need `_XOPEN_SOURCE`) nor
        /// function-like `_IOR` macros, so the two requests are spelt out.
        static let getSlaveNumber: UInt = 0x8004_5430
        /// `TIOCSPTLCK`, `_IOW('T', 0x31, int)`: lock (1) or unlock (0) the slave.
        static let setSlaveLock: UInt = 0x4004_5431

        /// Opens a pair sized `columns` × `rows`.
        init(columns: UInt16, rows: UInt16) throws {
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard master >= 0, ioctl(master, Self.setSlaveLock, &unlock) == 0,
                ioctl(master, Self.getSlaveNumber, &number) == 0
            else {
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
            slavePath = "/dev/pts/\(number)"
            var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        }

        /// Reads what is there until `timeout` passes with nothing new, or `until` holds.
        func read(timeout: Int32, until: (String) -> Bool = { _ in false }) -> String {
            var bytes: [UInt8] = []
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, timeout) == 1 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = Glibc.read(master, &chunk, chunk.count)
                // EIO: every slave descriptor is closed, the program has ended.
                guard count > 0 else { break }
                bytes += chunk[..<count]
                if until(String(decoding: bytes, as: UTF8.self)) { break }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test("draws the frame in place with the cursor hidden, and restores the terminal on SIGINT")
    func drawsAndRestores() throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        // Some minimal containers have no devpts; CI must have one, as for any missing tool.
        guard FileManager.default.fileExists(atPath: "/dev/ptmx") else { try skip("/dev/ptmx not found (no pseudo-terminals here)") }
        let terminal = try PseudoTerminal(columns: 60, rows: 17)
        defer { close(terminal.master) }
        let daemon = try FakeDaemon(replies: [[DaemonCommandTests.ok, DaemonCommandTests.status]])
        let slave = try #require(FileHandle(forUpdatingAtPath: terminal.slavePath))
        let process = Process()
        process.executableURL = waypointctl
        // A slow rate, so the client cannot time out waiting for updates before the SIGINT.
        process.arguments = ["--socket", daemon.path, "watch", "--hz", "0.1"]
        process.standardOutput = slave
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        try slave.close()

        let motorLine = "  motor   [###########---------] 55%"
        let drawn = terminal.read(timeout: 10_000) { $0.contains(motorLine) }
        kill(process.processIdentifier, SIGINT)
        let rest = terminal.read(timeout: 2_000)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { usleep(2000) }
        try #require(!process.isRunning, "waypointctl watch still runs 10 s after SIGINT")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let escape = "\u{1B}"
        #expect(
            drawn.hasPrefix("\(escape)[?25l\(escape)[2J\(escape)[H"), "hides the cursor and clears the screen first")
        // The frame for 60 × 17, each line erased to its end; the terminal turns \n into \r\n.
        let status = try JSONDecoder().decode(StatusReport.self, from: Data(DaemonCommandTests.status.utf8))
        let expected =
            CompassFrame.render(status, columns: 60, rows: 17).map { $0 + "\(escape)[K" }
            .joined(separator: "\r\n") + "\r\n\(escape)[J"
        // The read stops at the motor line; the frame's last bytes may come with the rest.
        #expect((drawn + rest).contains(expected))
        #expect((drawn + rest).hasSuffix("\(escape)[0m\(escape)[?25h"), "resets attributes and shows the cursor last")
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).isEmpty)
    }
}
