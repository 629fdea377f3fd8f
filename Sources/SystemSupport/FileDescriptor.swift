@preconcurrency import Glibc

/// An open file descriptor and the calls made on it: `open`, `read`, `write`, `pwrite`,
/// `ftruncate`, `fstatfs`, `fsync` and `close`, each wrapped once here, retrying `EINTR` where
/// that is safe.
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
        /// `O_TRUNC`: empty an existing file.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_NOFOLLOW`: fail with `ELOOP` if the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_DIRECTORY`: fail with `ENOTDIR` unless the path is a directory.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
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

    /// Sets the size of the file, cutting off its end or extending it with zeros. Corresponds to
    /// `ftruncate(2)`.
    ///
    /// - Parameter size: The new size in bytes; not negative.
    /// - Throws: The `Errno` that `ftruncate` failed with, e.g. `EINVAL` for a descriptor that is
    ///   not a regular file open for writing, `EPERM` for an append-only or sealed file.
    public func resize(to size: Int64) throws(Errno) {
        _ = try checked(SystemCall.valueOrErrno { ftruncate(rawValue, off_t(size)) }).get()
    }

    /// The type of the file system the file is on, as the kernel numbers it (`f_type`).
    /// Corresponds to `fstatfs(2)`.
    ///
    /// - Returns: The file system's type, e.g. ``FileSystemType/sysfs``.
    /// - Throws: The `Errno` that `fstatfs` failed with, e.g. `ENOSYS` where the kernel lacks it.
    public func fileSystemType() throws(Errno) -> FileSystemType {
        // Swift's Glibc module does not include <sys/vfs.h> (see SwiftGlibc.h in the toolchain),
        // so `fstatfs` is not visible to Swift; it is looked up by name, and called with C's
        // calling convention, into a buffer large enough for `struct statfs` on every ABI.
        typealias FStatFS = @convention(c) (Int32, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(Self.defaultSymbolScope, "fstatfs") else { throw Errno(rawValue: ENOSYS) }
        let fstatfs = unsafeBitCast(symbol, to: FStatFS.self)
        let bytes = Self.statfsBufferBytes
        let result = withUnsafeTemporaryAllocation(byteCount: bytes, alignment: Self.statfsAlignment) { buffer in
            SystemCall.valueOrErrno { fstatfs(rawValue, buffer.baseAddress) }.map { _ in
                // `f_type` is the first field of `struct statfs`, a C `long` (`__fsword_t`), on
                // the generic Linux ABI (arm, aarch64, x86, riscv); every magic fits in 32 bits.
                FileSystemType(rawValue: UInt32(truncatingIfNeeded: buffer.load(as: CLong.self)))
            }
        }
        return try checked(result).get()
    }

    /// `RTLD_DEFAULT`: `dlsym` searches the program and every library it loaded.
    private static var defaultSymbolScope: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 0) }
    /// Bytes for `struct statfs`: 120 on 64-bit Linux, 64 (84 as `statfs64`) on 32-bit.
    private static let statfsBufferBytes = 256
    /// `struct statfs` holds C `long`s and 64-bit counts.
    private static let statfsAlignment = 8

    /// A file system's type as `statfs(2)` reports it in `f_type` (the `*_MAGIC` numbers of
    /// <linux/magic.h>).
    public struct FileSystemType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The magic number.
        public let rawValue: UInt32

        /// Wraps a magic number.
        ///
        /// - Parameter rawValue: The number, e.g. `0x62656572`.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// sysfs (`SYSFS_MAGIC`): where a write stores a value and truncation does nothing.
        public static let sysfs = FileSystemType(rawValue: 0x6265_6572)
        /// tmpfs (`TMPFS_MAGIC`), e.g. /dev/shm.
        public static let tmpfs = FileSystemType(rawValue: 0x0102_1994)

        public var description: String { "0x" + String(rawValue, radix: 16) }
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
