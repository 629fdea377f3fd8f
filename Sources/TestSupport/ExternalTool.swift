import Foundation
import Testing

/// Finds and runs the real programs that integration tests compare against or drive (GeodSolve,
/// gpsd, the built waypointctl).
///
/// A tool missing on a developer machine skips the test (reported as such, with the reason:
/// ``skip(_:sourceLocation:)``); under CI (`CI=true`) it is a failure, because a CI run that
/// skips its integration tests proves nothing.
public enum ExternalTool {
    /// A test that could not run, under CI: already recorded as a failure.
    public struct Skipped: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "not run: \(reason)" }
    }

    /// Whether this run is CI, where nothing may be skipped.
    public static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"].map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
    }

    /// The path of an executable on `PATH`; the test is skipped when there is none.
    /// - Parameters:
    ///   - name: the program, e.g. `"GeodSolve"`.
    ///   - hint: where to get it, e.g. `"apt-get install geographiclib-tools"`.
    ///   - extraDirectories: places to look beyond `PATH`, e.g. `/usr/sbin` for daemons.
    /// - Throws: the skip (a failure under CI) when the program is absent.
    public static func find(_ name: String, hint: String, extraDirectories: [String] = []) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + extraDirectories {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        try skip("\(name) not found (\(hint))")
    }

    /// One of this package's built programs: `$WAYPOINT_BIN_DIR/name` (set by `make test`), else
    /// `.build/debug/name`; the test is skipped when it is not there.
    /// - Throws: the skip (a failure under CI) when the program is absent.
    public static func built(_ name: String) throws -> URL {
        let directory =
            ProcessInfo.processInfo.environment["WAYPOINT_BIN_DIR"].map { URL(fileURLWithPath: $0) }
            ?? TestData.packageRoot.appendingPathComponent(".build/debug")
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        try skip("\(name) not found (run `swift build` (or `make test`) first; looked in \(directory.path))")
    }

    /// What a finished program printed, and how it ended.
    public struct Output: Sendable {
        /// Everything written to standard output.
        public let standardOutput: String
        /// Everything written to standard error.
        public let standardError: String
        /// The exit status.
        public let status: Int32
    }

    /// How long ``run(_:_:input:environment:limit:)`` lets a program run unless told otherwise:
    /// far past any program's run here (the package's build, a debootstrap), so only a hang
    /// reaches it.
    public static let runLimit = Duration.seconds(1200)

    /// Runs a program to completion, feeding `input` on standard input, for at most `limit`:
    /// one still running then is killed (SIGKILL) and recorded as a failure naming it, so a hang
    /// fails its test instead of stopping the run. Output is read on threads of its own, and no
    /// longer than a few seconds past the end (a program's own child may keep a pipe open).
    /// - Parameter environment: variables set for it on top of this process's own; a nil value
    ///   removes one.
    /// - Throws: when the program cannot be started.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String = "", environment: [String: String?] = [:],
        limit: Duration = runLimit
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // A program that exits without reading all its input must fail its test, not end the
        // test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try ChildProcess.withNoSignalBlocked { try process.run() }
        // Feed and drain concurrently so neither side fills a pipe buffer and blocks.
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = PipeCollector(stdout.fileHandleForReading)
        let errors = PipeCollector(stderr.fileHandleForReading)
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { usleep(2000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("\(executable.lastPathComponent) \(arguments.prefix(4).joined(separator: " ")) did not finish within \(limit); killed")
        }
        process.waitUntilExit()
        let drained = ContinuousClock.now + .seconds(5)
        return Output(
            standardOutput: String(decoding: output.wait(until: drained), as: UTF8.self),
            standardError: String(decoding: errors.wait(until: drained), as: UTF8.self),
            status: process.terminationStatus)
    }
}

/// Reads a pipe to its end on a thread of its own; what came is there to take at any time.
private final class PipeCollector: @unchecked Sendable {
    // @unchecked: `data` is read and written under `lock`.
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock { self.data.append(chunk) }
            }
            self.done.signal()
        }.start()
    }

    /// What was read when the pipe ended, or by `deadline` if it had not.
    func wait(until deadline: ContinuousClock.Instant) -> Data {
        let left = ContinuousClock.now.duration(to: deadline)
        let nanoseconds = max(0, Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000))
        _ = done.wait(timeout: .now() + .nanoseconds(nanoseconds))
        return lock.withLock { data }
    }
}

/// Skips the running test, reported as such with `reason` ("cancelled" in Swift Testing's
/// words), not counted as a pass; under CI (`CI=true`), where nothing may be skipped, it fails
/// instead.
/// - Throws: always: the skip, or under CI the failure.
public func skip(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
    if ExternalTool.isCI {
        Issue.record("not run under CI=true: \(reason)", sourceLocation: sourceLocation)
        throw ExternalTool.Skipped(reason: reason)
    }
    try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
}
