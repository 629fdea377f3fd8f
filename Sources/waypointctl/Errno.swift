@preconcurrency import Glibc

/// A C library error number with its text, as the socket calls report it.
///
/// waypointctl may not import SystemSupport (DESIGN.md §2), so this is its own small copy of
/// the idea: just what a client needs to tell people why a call failed.
struct Errno: Error, Hashable, CustomStringConvertible {
    /// The `errno` value, e.g. `ENOENT`.
    let rawValue: Int32

    /// The calling thread's `errno` right now: read it right after the failed call.
    static var current: Errno { Errno(rawValue: errno) }

    /// `EINTR`: a signal arrived before the call did anything; it may be made again.
    static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN`: a receive timeout (`SO_RCVTIMEO`) passed with nothing to read.
    static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOENT`: no socket file at the path.
    static let noSuchFile = Errno(rawValue: ENOENT)
    /// `ECONNREFUSED`: the file is there but no one listens on it (a daemon that died).
    static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// `EACCES`: the socket's mode or group keeps this user out.
    static let permissionDenied = Errno(rawValue: EACCES)

    /// `strerror(3)`, e.g. "No such file or directory".
    var description: String { String(cString: strerror(rawValue)) }
}
