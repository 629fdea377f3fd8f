/// Why a UNIX socket could not be set up, with the path or descriptor it concerns and the
/// underlying `Errno`.
public enum UnixSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path is empty, contains NUL or is longer than a `sockaddr_un` holds (107 bytes).
    case invalidPath(String)
    /// `socket` failed, e.g. `EMFILE`.
    case createFailed(Errno)
    /// `bind` failed, e.g. `EACCES` or `ENOENT` for a missing directory.
    case bindFailed(path: String, Errno)
    /// Another process listens on the path; its socket is left alone.
    case alreadyListening(path: String)
    /// Something that is not a socket (a regular file, a directory) is at the path; it is left
    /// alone.
    case notASocket(path: String)
    /// A stale socket file (nothing listens on it) could not be removed.
    case removeStaleFailed(path: String, Errno)
    /// `chmod` of the bound socket failed.
    case permissionsFailed(path: String, Errno)
    /// `listen` failed.
    case listenFailed(path: String, Errno)
    /// A descriptor handed over (by systemd socket activation) is not a listening socket, or
    /// could not be examined.
    case notListening(descriptor: Int32, Errno?)
    /// `accept4` failed with something other than a client leaving early.
    case acceptFailed(Errno)
    /// `connect` failed, e.g. `ENOENT` (no socket) or `ECONNREFUSED` (nothing listens).
    case connectFailed(path: String, Errno)
    /// The wake-up pipe that lets ``UnixSocketListener/stop()`` interrupt `accept` could not be
    /// made.
    case wakePipeFailed(Errno)

    public var description: String {
        switch self {
        case .invalidPath(let path):
            "\(path): not usable as a UNIX socket path (empty, NUL, over 107 bytes, or an abstract @name)"
        case .createFailed(let error): "cannot create a UNIX socket: \(error)"
        case .bindFailed(let path, let error): "\(path): cannot bind: \(error)"
        case .alreadyListening(let path): "\(path): another process is listening on this socket"
        case .notASocket(let path): "\(path): exists and is not a socket; not removing it"
        case .removeStaleFailed(let path, let error): "\(path): cannot remove stale socket: \(error)"
        case .permissionsFailed(let path, let error): "\(path): cannot set socket permissions: \(error)"
        case .listenFailed(let path, let error): "\(path): cannot listen: \(error)"
        case .notListening(let descriptor, let error):
            "fd \(descriptor) is not a listening socket" + (error.map { ": \($0)" } ?? "")
        case .acceptFailed(let error): "cannot accept a connection: \(error)"
        case .connectFailed(let path, let error): "\(path): cannot connect: \(error)"
        case .wakePipeFailed(let error): "cannot create the listener's wake-up pipe: \(error)"
        }
    }
}
