@preconcurrency import Glibc
import Synchronization

/// A listening UNIX stream socket: bound to a path by this process, or handed over already
/// listening by systemd socket activation.
///
/// ``accept()`` blocks its thread (run it on a ``BlockingThread``); ``stop()`` from any thread
/// makes a waiting or later ``accept()`` return nil, through a wake-up pipe rather than by
/// shutting the socket down, because an adopted socket is shared with systemd and must keep
/// working for the next start. Whoever calls ``accept()`` calls ``close()`` once it has
/// returned nil.
public final class UnixSocketListener: Sendable, CustomStringConvertible {
    /// The default mode of a bound socket file: owner and group may connect.
    public static let defaultPermissions: UInt32 = 0o660

    /// The path this process bound and removes on ``close()``; nil for an adopted socket.
    public let path: String?
    /// The listening descriptor.
    let descriptor: Int32
    /// The pipe ``stop()`` writes to.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Whether ``close()`` has run.
    private let closed = Mutex(false)

    private init(descriptor: Int32, path: String?) throws(UnixSocketError) {
        let ends: (read: Int32, write: Int32)
        switch SocketCall.makeWakePipe() {
        case .success(let pipe): ends = pipe
        case .failure(let error): throw .wakePipeFailed(error)
        }
        self.descriptor = descriptor
        self.path = path
        self.wakeRead = ends.read
        self.wakeWrite = ends.write
    }

    public var description: String { path.map { "UNIX socket \($0)" } ?? "UNIX socket fd \(descriptor)" }

    /// Creates a socket, binds it to `path`, sets its mode and listens.
    ///
    /// When a file is already at `path`: a socket nobody listens on (left by a crash) is
    /// removed and the bind tried again; a socket with a listener, or anything that is not a
    /// socket, is left alone and reported.
    ///
    /// - Parameters:
    ///   - path: The socket file's path; its directory must exist. Not an abstract `@name`:
    ///     those have no file mode, so anyone on the host could connect.
    ///   - permissions: The socket file's mode; connecting needs write permission.
    ///   - backlog: How many connections may wait for ``accept()``.
    /// - Returns: The listening socket.
    /// - Throws: A ``UnixSocketError`` naming the step that failed.
    public static func bind(
        path: String, permissions: UInt32 = defaultPermissions, backlog: Int32 = 16
    ) throws(UnixSocketError) -> UnixSocketListener {
        guard !path.hasPrefix("@"), SocketCall.withAddress(path, { _, _ in () }) != nil else {
            throw .invalidPath(path)
        }
        let descriptor: Int32
        switch SocketCall.makeStreamSocket() {
        case .success(let value): descriptor = value
        case .failure(let error): throw .createFailed(error)
        }
        do throws(UnixSocketError) {
            try bindReplacingStale(descriptor, path: path)
            if case .failure(let error) = SocketCall.changeMode(path, permissions: permissions) {
                throw .permissionsFailed(path: path, error)
            }
            if case .failure(let error) = SocketCall.listen(descriptor, backlog: backlog) {
                throw .listenFailed(path: path, error)
            }
            return try UnixSocketListener(descriptor: descriptor, path: path)
        } catch {
            try? FileDescriptor(rawValue: descriptor).close()
            throw error
        }
    }

    /// Takes over a descriptor that is already a listening socket, as systemd passes it
    /// (see ``SystemdNotifier/listenFileDescriptors()``). ``close()`` closes it but removes no
    /// file.
    ///
    /// - Parameter descriptor: The listening descriptor.
    /// - Returns: The listener.
    /// - Throws: ``UnixSocketError/notListening(descriptor:_:)`` when it is not listening.
    public static func adopt(descriptor: Int32) throws(UnixSocketError) -> UnixSocketListener {
        switch SocketCall.isListening(descriptor) {
        case .success(true): return try UnixSocketListener(descriptor: descriptor, path: nil)
        case .success(false): throw .notListening(descriptor: descriptor, nil)
        case .failure(let error): throw .notListening(descriptor: descriptor, error)
        }
    }

    /// Waits for the next client. Blocks the calling thread.
    ///
    /// A client that gave up before it was accepted (`ECONNABORTED`) is skipped.
    ///
    /// - Parameter outputLimit: The connection's ``UnixSocketConnection/outputLimit``; the
    ///   kernel's send buffer for it is capped to the same size, so a peer that stops reading
    ///   holds at most about twice this much of the daemon's memory.
    /// - Returns: The connection, or nil once ``stop()`` has been called.
    /// - Throws: ``UnixSocketError/acceptFailed(_:)``, e.g. with `EMFILE`; the listener stays
    ///   usable, and the caller should pause before trying again.
    public func accept(outputLimit: Int = UnixSocketConnection.defaultOutputLimit) throws(UnixSocketError)
        -> UnixSocketConnection?
    {
        while true {
            let ready: [Bool]
            switch SocketCall.waitForInput([wakeRead, descriptor]) {
            case .success(let value): ready = value
            case .failure(let error): throw .acceptFailed(error)
            }
            if ready[0] { return nil }
            switch SocketCall.accept(descriptor) {
            case .success(let client):
                // Only a smaller buffer fails to be set; the output limit still bounds the backlog.
                _ = SocketCall.setSendBufferSize(client, bytes: outputLimit)
                return UnixSocketConnection(descriptor: client, outputLimit: outputLimit)
            case .failure(let error) where error == .connectionAborted || error == .wouldBlock: continue
            case .failure(let error): throw .acceptFailed(error)
            }
        }
    }

    /// Makes a waiting ``accept()`` and every later one return nil. Safe from any thread, any
    /// number of times.
    public func stop() {
        // Under the lock `close()` takes, so the pipe cannot be closed while this writes to it
        // (a write to a closed descriptor is a programming error and traps).
        closed.withLock { closed in
            guard !closed else { return }
            var byte: UInt8 = 1
            // The pipe is non-blocking: when it is already full, a wake-up is pending anyway.
            _ = withUnsafeBytes(of: &byte) { try? FileDescriptor(rawValue: wakeWrite).write($0) }
        }
    }

    /// Closes the socket and the wake-up pipe and removes the socket file this process bound.
    /// Call it once no ``accept()`` is running; later calls do nothing.
    public func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        for descriptor in [descriptor, wakeRead, wakeWrite] {
            try? FileDescriptor(rawValue: descriptor).close()
        }
        if let path { try? FileSystem.removeFile(path) }
    }

    /// Binds, and on `EADDRINUSE` removes the file at `path` if it is a socket nobody listens
    /// on, then binds again.
    private static func bindReplacingStale(_ descriptor: Int32, path: String) throws(UnixSocketError) {
        switch SocketCall.bind(descriptor, path: path) {
        case .success: return
        case .failure(let error) where error == .addressInUse: break
        case .failure(let error): throw .bindFailed(path: path, error)
        }
        // `FileSystem.Kind` has no socket case; `.other` also covers FIFOs and devices, which
        // `connect` below refuses just like a dead socket. Regular files and directories are safe.
        switch Result(catching: { () throws(Errno) in try FileSystem.kind(of: path) }) {
        case .success(.other): break
        case .success(nil): break  // removed meanwhile: just bind again
        case .success: throw .notASocket(path: path)
        case .failure(let error): throw .bindFailed(path: path, error)
        }
        let probe: Int32
        switch SocketCall.makeStreamSocket() {
        case .success(let value): probe = value
        case .failure(let error): throw .createFailed(error)
        }
        let probed = SocketCall.connect(probe, path: path)
        try? FileDescriptor(rawValue: probe).close()
        switch probed {
        case .success: throw .alreadyListening(path: path)
        case .failure(let error) where error == .connectionRefused: break
        case .failure(let error) where error == .noSuchFileOrDirectory: break
        case .failure: throw .bindFailed(path: path, .addressInUse)
        }
        switch Result(catching: { () throws(Errno) in try FileSystem.removeFile(path) }) {
        case .success: break
        case .failure(let error) where error == .noSuchFileOrDirectory: break
        case .failure(let error): throw .removeStaleFailed(path: path, error)
        }
        if case .failure(let error) = SocketCall.bind(descriptor, path: path) {
            throw .bindFailed(path: path, error)
        }
    }
}
