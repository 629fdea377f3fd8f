/// The four calls a whole-file read makes, one method per call, so that the state store's tests
/// can fail any one of them while the rest are real. ``LinuxFileReading`` makes the real ones.
///
/// Every file the daemon reads (its config, state files, recordings, simulation events) is read
/// through ``contents(ofRegularFile:maximumBytes:followingLinks:)``.
public protocol FileReading: Sendable {
    /// Opens a file (`open(2)`, always close-on-exec).
    /// - Parameters:
    ///   - path: The file.
    ///   - mode: Reading, writing or both.
    ///   - options: Creation and safety flags.
    ///   - permissions: Mode bits of a created file.
    /// - Returns: The descriptor.
    /// - Throws: The `Errno` of the failure.
    func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions, permissions: UInt32
    ) throws(Errno) -> FileDescriptor

    /// What an open descriptor refers to (`fstat(2)`).
    /// - Parameter descriptor: An open descriptor.
    /// - Returns: Its kind.
    /// - Throws: The `Errno` of the failure.
    func kind(of descriptor: FileDescriptor) throws(Errno) -> FileSystem.Kind

    /// Reads once into `buffer` (`read(2)`).
    /// - Parameters:
    ///   - descriptor: An open descriptor.
    ///   - buffer: Where the bytes go.
    /// - Returns: Bytes read; 0 at the end.
    /// - Throws: The `Errno` of the failure.
    func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int

    /// Closes a descriptor (`close(2)`, never retried).
    /// - Parameter descriptor: An open descriptor; it is released even when this throws.
    /// - Throws: The `Errno` of the failure.
    func close(_ descriptor: FileDescriptor) throws(Errno)
}

extension FileReading {
    /// The whole of a regular file, refused unread when it is anything else or too large.
    ///
    /// The file is opened with `O_NONBLOCK`, so a FIFO at the path cannot hang the caller
    /// waiting for a writer, and with `O_NOFOLLOW` unless `followingLinks`, so a symbolic link
    /// planted in a directory of ours cannot point a read elsewhere. `fstat` on the open
    /// descriptor then checks that it is a regular file (a device such as `/dev/zero` never
    /// ends), and at most one byte past `maximumBytes` is read.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - maximumBytes: The largest file accepted, in bytes; not negative.
    ///   - followingLinks: Whether a symbolic link as the last component is followed: yes for a
    ///     path a user gave, no inside the daemon's own directories.
    /// - Returns: The file's bytes.
    /// - Throws: A ``FileReadError`` saying which check failed.
    public func contents(
        ofRegularFile path: String, maximumBytes: Int, followingLinks: Bool
    ) throws(FileReadError) -> [UInt8] {
        let options: FileDescriptor.OpenOptions = followingLinks ? [.nonBlocking] : [.nonBlocking, .noFollow]
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try open(path, .readOnly, options: options, permissions: 0)
        } catch where error == .noSuchFileOrDirectory {
            throw .missing
        } catch where error == .tooManySymbolicLinks && !followingLinks {
            throw .symbolicLink
        } catch {
            throw .failed(error)
        }
        defer {
            do throws(Errno) {
                try close(descriptor)
            } catch {
                // Nothing was written through this descriptor, so a failed close loses nothing,
                // and Linux releases the descriptor either way.
            }
        }
        let kind: FileSystem.Kind
        do throws(Errno) {
            kind = try self.kind(of: descriptor)
        } catch {
            throw .failed(error)
        }
        guard kind == .regularFile else { throw .notRegularFile(kind) }
        let bytes: [UInt8]
        do throws(Errno) {
            // One byte more than the limit tells a file at the limit from a larger one.
            bytes = try FileDescriptor.readAll(upToCount: maximumBytes + 1) { buffer throws(Errno) in
                try read(descriptor, into: buffer)
            }
        } catch {
            throw .failed(error)
        }
        guard bytes.count <= maximumBytes else { throw .tooLarge(limitBytes: maximumBytes) }
        return bytes
    }
}
