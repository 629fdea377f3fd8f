import SystemSupport

/// The system calls the state store makes, one method per call (those reading a file are
/// ``FileReading``'s).
///
/// Behind a protocol so that a test can make one chosen call fail (a write that stops half-way
/// with `ENOSPC`, an `fsync` with `EIO`, a `rename`) while every other call is the real one:
/// a full disk or a failing SD card cannot be produced on demand otherwise. Production code
/// uses ``LinuxStateFileSystem``.
public protocol StateFileSystem: FileReading {
    /// What is at `path`, or nil when nothing is (`stat(2)`).
    /// - Parameter path: The path to look at.
    /// - Throws: Any `Errno` but `ENOENT`.
    func kind(of path: String) throws(Errno) -> FileSystem.Kind?

    /// Creates one directory (`mkdir(2)`).
    /// - Parameters:
    ///   - path: The directory.
    ///   - permissions: Its mode bits.
    /// - Throws: The `Errno` of the failure.
    func makeDirectory(_ path: String, permissions: UInt32) throws(Errno)

    /// Checks that files may be created in a directory (`access(2)`, `W_OK | X_OK`).
    /// - Parameter path: The directory.
    /// - Throws: The `Errno` of the failure, e.g. `EACCES`, `EROFS`.
    func checkWritableDirectory(_ path: String) throws(Errno)

    /// Writes once from `buffer` (`write(2)`); may write fewer bytes than asked.
    /// - Parameters:
    ///   - descriptor: An open descriptor.
    ///   - buffer: The bytes.
    /// - Returns: Bytes written.
    /// - Throws: The `Errno` of the failure.
    func write(_ descriptor: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int

    /// Flushes a file or directory to the device (`fsync(2)`).
    /// - Parameter descriptor: An open descriptor.
    /// - Throws: The `Errno` of the failure.
    func sync(_ descriptor: FileDescriptor) throws(Errno)

    /// Renames a file, atomically replacing the destination (`rename(2)`).
    /// - Parameters:
    ///   - source: The current path.
    ///   - destination: The new path.
    /// - Throws: The `Errno` of the failure.
    func rename(_ source: String, to destination: String) throws(Errno)

    /// Removes a file (`unlink(2)`).
    /// - Parameter path: The file.
    /// - Throws: The `Errno` of the failure.
    func removeFile(_ path: String) throws(Errno)
}
