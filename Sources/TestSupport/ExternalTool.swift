import Foundation
import Testing

/// Finds and runs the real programs that integration tests compare against or drive (GeodSolve,
/// gpsd, the built waypointctl).
///
/// A tool missing on a developer machine skips the test with a printed reason; under CI
/// (`CI=true`) it is an error, because a CI run that skips its integration tests proves nothing.
public enum ExternalTool {
    /// A tool that should be there and is not, under CI.
    public struct Missing: Error, CustomStringConvertible {
        /// The program looked for.
        public let name: String
        /// Where it usually comes from.
        public let hint: String
        public var description: String { "\(name) is missing under CI=true (\(hint))" }
    }

    /// A test that could not run, under CI: already recorded as a failure.
    public struct Skipped: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "not run: \(reason)" }
    }

    /// Whether this run is CI, where nothing may be skipped.
    public static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"].map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
    }

    /// The path of an executable on `PATH`, or nil after printing why the test is skipped.
    /// - Parameters:
    ///   - name: the program, e.g. `"GeodSolve"`.
    ///   - hint: where to get it, e.g. `"apt-get install geographiclib-tools"`.
    ///   - extraDirectories: places to look beyond `PATH`, e.g. `/usr/sbin` for daemons.
    /// - Throws: `Missing` when the program is absent and `isCI` is true.
    public static func find(_ name: String, hint: String, extraDirectories: [String] = []) throws -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + extraDirectories {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return try missing(name, hint: hint)
    }

    /// One of this package's built programs: `$WAYPOINT_BIN_DIR/name` (set by `make test`), else
    /// `.build/debug/name`; nil after printing why the test is skipped.
    /// - Throws: `Missing` when the binary is absent and `isCI` is true.
    public static func built(_ name: String) throws -> URL? {
        let directory =
            ProcessInfo.processInfo.environment["WAYPOINT_BIN_DIR"].map { URL(fileURLWithPath: $0) }
            ?? TestData.packageRoot.appendingPathComponent(".build/debug")
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return try missing(name, hint: "run `swift build` (or `make test`) first; looked in \(directory.path)")
    }

    private static func missing(_ name: String, hint: String) throws -> URL? {
        if isCI { throw Missing(name: name, hint: hint) }
        print("skipping: \(name) not found (\(hint))")
        return nil
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

    /// Runs a program to completion, feeding `input` on standard input.
    /// - Throws: when the program cannot be started.
    public static func run(_ executable: URL, _ arguments: [String], input: String = "") throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // A program that exits without reading all its input must fail its test, not end the
        // test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        // Feed and drain concurrently so neither side fills a pipe buffer and blocks.
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = ErrorCollector(stderr.fileHandleForReading)
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self),
            status: process.terminationStatus)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
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
