@preconcurrency import Glibc

/// A program run as a child: its standard output a pipe this process reads line by line, its
/// standard error a file (read after it ends, so a chatty child can never block on a full pipe
/// no one reads), standard input `/dev/null` or a few bytes given. The only caller of
/// `posix_spawn` outside tests.
public final class SpawnedProcess {
    public let processID: pid_t
    private let output: FileDescriptor
    private var exitStatus: Int32?
    /// Whether the child leads a process group of its own, which ``kill()`` ends whole.
    private let isGroupLeader: Bool

    /// The most bytes ``init(_:_:standardErrorPath:standardInput:ownProcessGroup:)`` writes to
    /// the child's standard input: what a pipe takes at once (`PIPE_BUF`), so the write never
    /// waits for the child.
    public static let maximumInputBytes = 4096

    /// Why a program could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public var program: String
        public var errno: Errno
        public var description: String { "cannot start \(program): \(errno)" }
    }

    /// Starts `program` (a path) with `arguments`, standard error to `standardErrorPath`.
    /// - Parameters:
    ///   - standardInput: What the child reads on standard input, at most
    ///     ``maximumInputBytes`` (more are cut); nil: `/dev/null`.
    ///   - ownProcessGroup: Whether the child leads a new process group, so that ``kill()``
    ///     also ends what it started (a shell's pipeline).
    public init(
        _ program: String, _ arguments: [String], standardErrorPath: String, standardInput: [UInt8]? = nil,
        ownProcessGroup: Bool = false
    ) throws(StartError) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw StartError(program: program, errno: .current) }
        // Neither end may leak into another child; the spawn dups the write end onto 1.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var inputEnds: [Int32] = [-1, -1]
        if let standardInput {
            guard pipe(&inputEnds) == 0 else {
                pipeEnds.forEach { close($0) }
                throw StartError(program: program, errno: .current)
            }
            for end in inputEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // Written before the child runs: it fits the pipe, so the write cannot wait.
            let bytes = standardInput.prefix(Self.maximumInputBytes)
            _ = bytes.withUnsafeBytes { Glibc.write(inputEnds[1], $0.baseAddress, $0.count) }
            close(inputEnds[1])
        }
        defer { if inputEnds[0] >= 0 { close(inputEnds[0]) } }
        isGroupLeader = ownProcessGroup
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if inputEnds[0] >= 0 {
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The child starts as from a shell: no signal blocked (``SignalStream/block(_:)`` is
        // inherited across exec, and a blocked SIGTERM could not stop it), none ignored.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = SignalStream.signalSet([])
        var ours = SignalStream.signalSet(SignalStream.inheritedByChildren)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &ours)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw StartError(program: program, errno: Errno(rawValue: result))
        }
        processID = pid
        output = FileDescriptor(rawValue: pipeEnds[0])
    }

    deinit {
        try? output.close()
        if exitStatus == nil {
            Glibc.kill(isGroupLeader ? -processID : processID, SIGKILL)
            _ = wait()
        }
    }

    /// Hands each line of the child's output to `body` (without its newline) until the output
    /// ends or `body` returns false. A line longer than `maximumLineBytes` is not handed on;
    /// the count of such lines is returned. Memory stays under `maximumLineBytes` plus a read.
    /// `stopWhen` is asked every ``stopCheckMilliseconds`` while the child is silent (osmium
    /// reads a big extract's relations for a minute before its first line): true ends it.
    public func forEachLine(
        maximumLineBytes: Int, stopWhen: () -> Bool = { false }, _ body: (ArraySlice<UInt8>) -> Bool
    ) -> (skippedLines: Int, readError: Errno?) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var skipping = false
        var skipped = 0
        while true {
            while case .success(false) = SocketCall.wait(output.rawValue, for: Int16(POLLIN), milliseconds: Self.stopCheckMilliseconds) {
                if stopWhen() { return (skipped, nil) }
            }
            let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try output.read(into: raw) } }
            let read: Int
            switch result {
            case .success(let count): read = count
            case .failure(let error): return (skipped, error)
            }

            if read == 0 {
                if !buffer.isEmpty, !skipping { _ = body(buffer[...]) }
                return (skipped, nil)
            }
            var start = 0
            for index in 0..<read where chunk[index] == UInt8(ascii: "\n") {
                if skipping {
                    skipping = false
                } else {
                    buffer.append(contentsOf: chunk[start..<index])
                    guard body(buffer[...]) else { return (skipped, nil) }
                }
                buffer.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !skipping {
                buffer.append(contentsOf: chunk[start..<read])
                if buffer.count > maximumLineBytes {
                    skipping = true
                    skipped += 1
                    buffer = []
                }
            }
        }
    }

    /// How often ``forEachLine(maximumLineBytes:stopWhen:_:)`` asks whether to stop, at most.
    public static let stopCheckMilliseconds: Int32 = 250

    /// Ends the child at once (SIGKILL), with its process group when it leads one, when its
    /// output is no longer wanted; ``wait()`` then reaps it.
    public func kill() {
        guard exitStatus == nil else { return }
        _ = Glibc.kill(isGroupLeader ? -processID : processID, SIGKILL)
    }

    /// Waits for the child: its exit status, or 128 + the signal that ended it.
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
    }

    /// The path of `name` on `$PATH` (or `name` itself when it holds a `/`), if executable.
    public static func find(_ name: String, path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
