import Foundation
import Synchronization

/// A program running beside the test: its output lines arrive as they are written, each with
/// its arrival time, and its CPU time can be read while it runs.
public final class ChildProcess: Sendable {
    /// One line of output and when it arrived.
    public struct Line: Sendable {
        public let text: String
        public let at: ContinuousClock.Instant
    }

    private final class Lines: Sendable {
        let lines = Mutex<[Line]>([])
        let partial = Mutex<Data>(Data())

        func append(_ data: Data) {
            let now = ContinuousClock.now
            partial.withLock { partial in
                partial.append(data)
                while let newline = partial.firstIndex(of: 0x0A) {
                    let text = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                    partial.removeSubrange(partial.startIndex...newline)
                    lines.withLock { $0.append(Line(text: text, at: now)) }
                }
            }
        }
    }

    private let process: Process
    private let outputLines = Lines()
    private let errorLines = Lines()

    /// The process id.
    public var processID: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments`; standard input is empty.
    /// - Parameter environment: variables set for it on top of this process's own.
    /// - Throws: when the program cannot be started.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let outputLines = self.outputLines
        let errorLines = self.errorLines
        output.fileHandleForReading.readabilityHandler = { outputLines.append($0.availableData) }
        error.fileHandleForReading.readabilityHandler = { errorLines.append($0.availableData) }
        try Self.withNoSignalBlocked { try process.run() }
    }

    /// Runs `body` (a spawn) with this thread's signal mask empty, so that the child starts with
    /// none blocked, as systemd and a shell start a program: a child inherits the mask of the
    /// thread that spawns it, and the threads of Swift concurrency's pool block nearly every
    /// signal, which would hide a program's own failure to take one.
    static func withNoSignalBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return try body()
    }

    deinit { terminate() }

    /// Standard output so far, line by line.
    public var output: [Line] { outputLines.lines.withLock { $0 } }
    /// Standard error so far, line by line.
    public var errors: [Line] { errorLines.lines.withLock { $0 } }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// The longest ``waitForExit(within:)`` waits unless told otherwise: far past any program's
    /// stop here (a daemon's own stop deadline is 5 s), so only a hang reaches it.
    public static let exitLimit = Duration.seconds(30)

    /// Its exit status, waiting at most `limit` for it to end: a program that does not end is
    /// killed (SIGKILL) and gives nil, so a hang fails its test instead of stopping the run. A
    /// program ended by a signal gives 128 plus the signal's number, as a shell says it.
    public func waitForExit(within limit: Duration = ChildProcess.exitLimit) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                terminate()
                return nil
            }
            usleep(2000)
        }
        // Reaped by Foundation already; this only waits for its bookkeeping.
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Sends SIGKILL if it still runs, and reaps it.
    public func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// User plus system CPU time so far, in seconds, from `/proc/PID/stat`.
    public func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / ticksPerSecond
    }

    /// A field of `/proc/PID/status` in kilobytes or as a count: `VmRSS`, `VmHWM`, `Threads`.
    public func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        }
        return nil
    }

    /// How many descriptors it has open, from `/proc/PID/fd`.
    public var openDescriptors: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(processID)/fd"))?.count
    }

    /// Polls until `condition` holds for the output lines so far, or `timeout` passes.
    /// - Returns: whether it held.
    @discardableResult
    public func wait(timeout: Duration, until condition: (_ output: [Line], _ errors: [Line]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(output, errors) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(output, errors)
    }
}
