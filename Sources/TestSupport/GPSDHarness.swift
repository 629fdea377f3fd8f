import Foundation

/// A real gpsd reading a pseudo-terminal that the test owns, on a free local port: the test
/// writes a recorded log into the terminal and the client under test connects to the port.
/// This reproduces gpsd's expected output for the recorded logs exactly, unlike gpsfake's
/// timing (reference/gpsd.md §5.6).
///
/// gpsd runs in a process group of its own and `stop()` kills the whole group.
public final class GPSDHarness: @unchecked Sendable {
    /// The port gpsd listens on (127.0.0.1 and ::1).
    public private(set) var port: UInt16
    /// gpsd's process id, also its process group id.
    public private(set) var processID: pid_t = 0
    /// `127.0.0.1:port`.
    public var address: String { "127.0.0.1:\(port)" }

    private let gpsd: URL
    private let directory: URL
    private var master: Int32 = -1
    private var slave: Int32 = -1
    private var slavePath = ""

    /// Starts gpsd; the test is skipped when gpsd is not installed (a failure under CI).
    /// - Parameter port: a port to reuse (to restart gpsd where a client expects it), or nil
    ///   for a free one.
    /// - Throws: the skip, or `HarnessError`.
    public static func start(port: UInt16? = nil) throws -> GPSDHarness {
        let gpsd = try ExternalTool.find("gpsd", hint: "apt-get install gpsd", extraDirectories: ["/usr/sbin", "/sbin"])
        let harness = try GPSDHarness(gpsd: gpsd, port: port ?? freePort())
        try harness.launch()
        return harness
    }

    private init(gpsd: URL, port: UInt16) throws {
        self.gpsd = gpsd
        self.port = port
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try openTerminal()
    }

    deinit {
        stop()
        if master >= 0 { close(master) }
        if slave >= 0 { close(slave) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Why the harness could not start.
    public struct HarnessError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `TIOCSPTLCK` and `TIOCGPTN` from <asm-generic/ioctls.h>: computed `_IOW`/`_IOR` macros
    /// that Swift does not import. (`posix_openpt` and friends need _XOPEN_SOURCE, which the
    /// Glibc module does not define.)
    private static let unlockPseudoTerminal: UInt = 0x4004_5431
    private static let pseudoTerminalNumber: UInt = 0x8004_5430

    private func openTerminal() throws {
        // Non-blocking: once gpsd is gone nobody drains the terminal, and a full terminal must
        // not hang the test.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockPseudoTerminal, &unlock) == 0,
            ioctl(master, Self.pseudoTerminalNumber, &number) == 0
        else {
            throw HarnessError(description: "cannot open a pseudo-terminal: errno \(errno)")
        }
        slavePath = "/dev/pts/\(number)"
        slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw HarnessError(description: "cannot open \(slavePath): errno \(errno)") }
        // Raw mode: the bytes of the log reach gpsd unchanged (no CR/LF translation, no echo).
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
    }

    private func launch() throws {
        let arguments = [
            gpsd.path, "-N", "-n", "-b", "-S", String(port), "-F", directory.appendingPathComponent("control.sock").path,
            "-P", directory.appendingPathComponent("gpsd.pid").path, slavePath,
        ]
        // Its own shared-memory segment, so it never meets a system gpsd's.
        let environment = ["GPSD_SHM_KEY=0x4770\(String(port, radix: 16))", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        let log = directory.appendingPathComponent("gpsd.log").path
        processID = try Self.spawnInNewGroup(arguments, environment: environment, output: log)
        // gpsd listens within a few tens of milliseconds.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if Self.canConnect(port: port) { return }
            usleep(20_000)
        }
        stop()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw HarnessError(description: "gpsd did not listen on port \(port) within 5 s: \(output)")
    }

    /// Writes a recorded log into the terminal, one sentence at a time, `interval` apart.
    /// Comment lines are left out; a binary log (SiRF) goes in small chunks after its header.
    /// - Parameter stop: checked between sentences; feeding ends when it returns true.
    public func feed(_ log: URL, interval: TimeInterval = 0.005, stop: () -> Bool = { false }) throws {
        let bytes = try Data(contentsOf: log)
        var chunks: [Data] = []
        let isText = !bytes.contains(where: { $0 == 0 || $0 >= 0x80 })
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if isText {
            chunks = lines.filter { !$0.isEmpty && $0.first != UInt8(ascii: "#") }.map { Data($0) + Data([0x0A]) }
        } else {
            while let first = lines.first, first.first == UInt8(ascii: "#") { lines.removeFirst() }
            let body = Data(lines.joined(separator: [UInt8(ascii: "\n")]))
            stride(from: 0, to: body.count, by: 64).forEach { chunks.append(body.subdata(in: $0..<min($0 + 64, body.count))) }
        }
        for chunk in chunks {
            if stop() { return }
            try chunk.withUnsafeBytes { buffer in
                var offset = 0
                var fullRetries = 0
                while offset < buffer.count {
                    let written = write(master, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    if written < 0 && errno == EAGAIN {
                        // The terminal is full: gpsd is not reading (stopped, or frozen).
                        fullRetries += 1
                        guard fullRetries < 400, !stop() else {
                            throw HarnessError(description: "the terminal stayed full for 2 s: gpsd is not reading")
                        }
                        Thread.sleep(forTimeInterval: 0.005)
                        continue
                    }
                    guard written > 0 else { throw HarnessError(description: "writing to the terminal failed: errno \(errno)") }
                    offset += written
                }
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// Freezes gpsd (SIGSTOP), as a hung daemon.
    public func suspend() { kill(-processID, SIGSTOP) }

    /// Thaws gpsd (SIGCONT).
    public func resume() { kill(-processID, SIGCONT) }

    /// Ends gpsd and anything it started: SIGTERM to the group, SIGKILL after 2 s.
    public func stop() {
        guard processID > 0 else { return }
        kill(-processID, SIGCONT)
        kill(-processID, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(processID, &status, WNOHANG) == processID { break }
            usleep(20_000)
        }
        kill(-processID, SIGKILL)
        _ = waitpid(processID, &status, WNOHANG)
        processID = 0
    }

    /// A port nothing listens on right now (the kernel's pick for port 0).
    public static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError(description: "socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError(description: "bind failed: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port.
    public static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Starts a program in a process group of its own, output to a file.
    static func spawnInNewGroup(_ arguments: [String], environment: [String], output: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw HarnessError(description: "cannot start \(arguments[0]): errno \(result)") }
        return pid
    }
}
