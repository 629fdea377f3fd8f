@preconcurrency import Glibc

/// The error numbers that file code tests for by name.
extension Errno {
    /// No such file or directory (`ENOENT`).
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// File exists (`EEXIST`).
    public static let fileExists = Errno(rawValue: EEXIST)
    /// Not a directory (`ENOTDIR`).
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// Is a directory (`EISDIR`).
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// Permission denied (`EACCES`).
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// Read-only file system (`EROFS`).
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// No space left on device (`ENOSPC`).
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// File too large (`EFBIG`), also what a write past `RLIMIT_FSIZE` fails with.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// Input/output error (`EIO`).
    public static let ioError = Errno(rawValue: EIO)
    /// Invalid argument (`EINVAL`).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// Too many levels of symbolic links (`ELOOP`), also what `O_NOFOLLOW` fails with on a link.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// Bad file descriptor (`EBADF`): always a programmer error.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
}
