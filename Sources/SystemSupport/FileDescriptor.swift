@preconcurrency import Glibc

/// An open file descriptor and the calls made on it: `open`, `read`, `write`, `pwrite`,
/// `ftruncate`, `fsync` and `close`, each wrapped once here, retrying `EINTR` where that is safe.
///
/// A descriptor is a plain value: whoever opens it closes it, exactly once.
public struct FileDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The kernel's descriptor number.
    public let rawValue: Int32

    /// Wraps a descriptor number that is already open.
    ///
    /// - Parameter rawValue: The descriptor number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// How a file is opened: for reading, writing or both.
    public enum AccessMode: Sendable, Hashable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDWR`.
        case readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// Flags for `open` beyond the access mode.
    public struct OpenOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `O_CREAT`: create the file if it does not exist.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_EXCL`: with `create`, fail with `EEXIST` if anything, even a symbolic link, is
        /// already at the path.
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// `O_APPEND`: every write goes to the end of the file.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// `O_TRUNC`: empty an existing file.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_NOFOLLOW`: fail with `ELOOP` if the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_DIRECTORY`: fail with `ENOTDIR` unless the path is a directory.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// `O_NONBLOCK`: opening a FIFO with no writer returns at once instead of waiting for
        /// one (a regular file ignores the flag).
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    }

    public var description: String { "fd \(rawValue)" }

    /// Opens a file. Corresponds to `open(2)`.
    ///
    /// `O_CLOEXEC` is always set: the daemon starts helper processes (gpsd in tests, tools), and
    /// none of them should inherit a state file or a device.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - mode: Reading, writing or both.
    ///   - options: Creation and safety flags.
    ///   - permissions: The mode bits of a file that `create` makes (the umask still applies);
    ///     ignored otherwise.
    /// - Returns: The new descriptor.
    /// - Throws: The `Errno` that `open` failed with, e.g. `ENOENT`, `EEXIST`, `EACCES`.
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0o600
    ) throws(Errno) -> FileDescriptor {
        // `withCString` rethrows untyped errors, so the Errno travels in a Result.
        try path.withCString { path in
            Result { () throws(Errno) in try open(path, mode, options: options, permissions: permissions) }
        }.get()
    }

    /// As ``open(_:_:options:permissions:)``, for a path already a C string (built on the stack
    /// by a caller that must not allocate, or passed on from `withCString`).
    public static func open(
        _ path: UnsafePointer<CChar>, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0o600
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.flags | options.rawValue | O_CLOEXEC
        let descriptor = try SystemCall.valueOrErrno { Glibc.open(path, flags, mode_t(permissions)) }.get()
        return FileDescriptor(rawValue: descriptor)
    }

    /// Reads up to `buffer.count` bytes. Corresponds to `read(2)`.
    ///
    /// - Parameter buffer: Where the bytes go.
    /// - Returns: The number of bytes read; 0 at the end of the file.
    /// - Throws: The `Errno` that `read` failed with, e.g. `EIO`, or `EISDIR` for a directory.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let result = SystemCall.valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        return try checked(result).get()
    }

    /// Writes up to `buffer.count` bytes, once; the kernel may write fewer (a full disk, a file
    /// size limit), so callers that need everything written loop. Corresponds to `write(2)`.
    ///
    /// - Parameter buffer: The bytes to write.
    /// - Returns: The number of bytes written.
    /// - Throws: The `Errno` that `write` failed with, e.g. `ENOSPC`, `EIO`, `EFBIG`.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let result = SystemCall.valueOrErrno { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
        return try checked(result).get()
    }

    /// Writes up to `buffer.count` bytes at `offset` bytes from the start of the file, once,
    /// without moving the descriptor's file offset; the kernel may write fewer. Corresponds to
    /// `pwrite(2)`.
    ///
    /// A sysfs attribute kept open is rewritten this way: every call is one store of a new value.
    ///
    /// - Parameters:
    ///   - offset: Where in the file the bytes go; not negative.
    ///   - buffer: The bytes to write.
    /// - Returns: The number of bytes written.
    /// - Throws: The `Errno` that `pwrite` failed with, e.g. `ENOSPC`, `EIO`, `ESPIPE` for a pipe
    ///   or socket, or what a sysfs attribute refused the value with (`EINVAL`, `ENODEV`).
    public func write(toAbsoluteOffset offset: Int64, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let result = SystemCall.valueOrErrno { pwrite(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
        return try checked(result).get()
    }

    /// Reads up to `buffer.count` bytes from `offset` bytes into the file, without moving the
    /// descriptor's file offset. Corresponds to `pread(2)`.
    ///
    /// A sysfs attribute kept open is read back this way: every call at offset 0 asks the
    /// driver for its value anew.
    ///
    /// - Returns: The number of bytes read; 0 at the end of the file.
    /// - Throws: The `Errno` that `pread` failed with, e.g. `EIO`, or `ENODEV` for a sysfs
    ///   attribute whose device has gone.
    public func read(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let result = SystemCall.valueOrErrno { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
        return try checked(result).get()
    }

    /// How many names the file has; 0 once it has been removed while still open. Corresponds
    /// to `fstat(2)`'s `st_nlink`.
    ///
    /// - Throws: The `Errno` that `fstat` failed with.
    public func linkCount() throws(Errno) -> Int {
        var status = stat()
        _ = try checked(SystemCall.valueOrErrno { fstat(rawValue, &status) }).get()
        return Int(status.st_nlink)
    }

    /// Sets the size of the file, cutting off its end or extending it with zeros. Corresponds to
    /// `ftruncate(2)`.
    ///
    /// - Parameter size: The new size in bytes; not negative.
    /// - Throws: The `Errno` that `ftruncate` failed with, e.g. `EINVAL` for a descriptor that is
    ///   not a regular file open for writing, `EPERM` for an append-only or sealed file.
    public func resize(to size: Int64) throws(Errno) {
        _ = try checked(SystemCall.valueOrErrno { ftruncate(rawValue, off_t(size)) }).get()
    }

    /// Flushes the file's data and metadata to the device. Corresponds to `fsync(2)`.
    ///
    /// On a directory this makes the names in it durable: the step after a `rename` that makes
    /// the rename survive a power cut.
    ///
    /// - Throws: The `Errno` that `fsync` failed with, e.g. `EIO` or `ENOSPC` for data that could
    ///   not be written back, `EINVAL` on a file system that cannot sync this kind of file.
    public func sync() throws(Errno) {
        _ = try checked(SystemCall.valueOrErrno { fsync(rawValue) }).get()
    }

    /// What the descriptor refers to. Corresponds to `fstat(2)`.
    ///
    /// - Returns: Its kind; a FIFO, socket or device is ``FileSystem/Kind/other``.
    /// - Throws: The `Errno` that `fstat` failed with, e.g. `EIO`.
    public func kind() throws(Errno) -> FileSystem.Kind {
        var status = stat()
        _ = try checked(SystemCall.valueOrErrno { fstat(rawValue, &status) }).get()
        return FileSystem.Kind(mode: status.st_mode)
    }

    /// The file's size in bytes. Corresponds to `fstat(2)`'s `st_size`.
    ///
    /// - Throws: The `Errno` that `fstat` failed with.
    public func size() throws(Errno) -> Int {
        var status = stat()
        _ = try checked(SystemCall.valueOrErrno { fstat(rawValue, &status) }).get()
        return Int(status.st_size)
    }

    /// Which file the descriptor refers to: its device and inode, from `fstat(2)`.
    ///
    /// - Throws: The `Errno` that `fstat` failed with.
    public func identity() throws(Errno) -> FileIdentity {
        var status = stat()
        _ = try checked(SystemCall.valueOrErrno { fstat(rawValue, &status) }).get()
        // glibc's major() and minor() are macros Swift does not import: their encoding of dev_t.
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        return FileIdentity(major: UInt32(truncatingIfNeeded: major), minor: UInt32(truncatingIfNeeded: minor), inode: UInt64(status.st_ino))
    }

    /// Takes an exclusive advisory lock on the file, without waiting. Corresponds to
    /// `flock(LOCK_EX | LOCK_NB)`.
    ///
    /// The lock belongs to this open file description: it is released when the descriptor is
    /// closed, or when the process ends however it ends, so a crash never leaves it held.
    ///
    /// - Returns: false when another open file description holds a lock on the file.
    /// - Throws: The `Errno` that `flock` failed with otherwise, e.g. `ENOLCK`.
    public func lockExclusivelyWithoutWaiting() throws(Errno) -> Bool {
        // EWOULDBLOCK is EAGAIN on Linux.
        switch checked(SystemCall.valueOrErrno { flock(rawValue, LOCK_EX | LOCK_NB) }) {
        case .success: return true
        case .failure(let error) where error == .wouldBlock: return false
        case .failure(let error): throw error
        }
    }

    /// Closes the descriptor. Corresponds to `close(2)`.
    ///
    /// Never retried: Linux releases the descriptor even when `close` fails with `EINTR`, and a
    /// second `close` could close a descriptor another thread has just been given
    /// (see close(2), "Dealing with error returns from close()").
    ///
    /// - Throws: The `Errno` that `close` failed with; `EIO` here means data written earlier
    ///   may be lost (network file systems report write errors this late).
    public func close() throws(Errno) {
        _ = try checked(SystemCall.valueOrErrno(retryOnInterrupt: false) { Glibc.close(rawValue) }).get()
    }

    /// Passes a result on, trapping on `EBADF`: using a descriptor that is not open is a
    /// programmer error, not a condition to handle.
    private func checked<Value>(_ result: Result<Value, Errno>) -> Result<Value, Errno> {
        if case .failure(let error) = result {
            precondition(error != .badFileDescriptor, "\(self) is not an open file descriptor")
        }
        return result
    }
}
