@preconcurrency import Glibc

/// The error numbers that socket code tests for by name.
extension Errno {
    /// Address already in use (`EADDRINUSE`): `bind` found a file at the socket's path.
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    /// Connection refused (`ECONNREFUSED`): nothing listens on a UNIX socket's path.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// Software caused connection abort (`ECONNABORTED`): a client left before `accept`.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// Too many open files in this process (`EMFILE`).
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// Too many open files in the system (`ENFILE`).
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// No buffer space available (`ENOBUFS`).
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// Cannot allocate memory (`ENOMEM`).
    public static let outOfMemory = Errno(rawValue: ENOMEM)
}
