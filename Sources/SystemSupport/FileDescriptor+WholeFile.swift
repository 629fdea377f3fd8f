/// Whole reads and writes built on the single `read` and `write` calls of ``FileDescriptor``:
/// `read(2)` and `write(2)` may move fewer bytes than asked, so callers that want a whole file,
/// or a whole line written, loop. No C call is made here.
extension FileDescriptor {
    /// Bytes asked for per `read` call.
    static let readChunkBytes = 65_536

    /// Reads until the end of the file, or until `maximumBytes` bytes have been read.
    ///
    /// To refuse a file larger than a limit, ask for one byte more than the limit and check the
    /// count.
    ///
    /// - Parameter maximumBytes: The most bytes to read; not negative.
    /// - Returns: The bytes read: all of the rest of the file when it has at most `maximumBytes`.
    /// - Throws: The `Errno` that `read` failed with, e.g. `EIO`, or `EISDIR` for a directory.
    public func read(upToCount maximumBytes: Int) throws(Errno) -> [UInt8] {
        precondition(maximumBytes >= 0, "cannot read \(maximumBytes) bytes")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(maximumBytes, Self.readChunkBytes))
        while bytes.count < maximumBytes {
            let wanted = min(chunk.count, maximumBytes - bytes.count)
            // `withUnsafeMutableBytes` rethrows untyped errors, so the Errno travels in a Result.
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])) }
            }
            let count = try result.get()
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Writes every byte, looping over short writes (a nearly full disk, a file size limit);
    /// the write after a short one reports why it was short.
    ///
    /// - Parameter bytes: The bytes to write.
    /// - Throws: The `Errno` that `write` failed with, e.g. `ENOSPC`, `EIO`, `EFBIG`; some of the
    ///   bytes may have been written.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) in try write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }
            let written = try result.get()
            // write(2) returns 0 for a non-empty buffer only on exotic devices; treat it as an
            // I/O error rather than loop forever.
            guard written > 0 else { throw .ioError }
            offset += written
        }
    }
}

extension FileSystem {
    /// The contents of a file: opened read-only, read to the end (or to `maximumBytes`), closed.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - maximumBytes: The most bytes to read; as ``FileDescriptor/read(upToCount:)``.
    /// - Returns: The bytes read.
    /// - Throws: The `Errno` that `open` or `read` failed with, e.g. `ENOENT`, `EACCES`, or
    ///   `EISDIR` for a directory.
    public static func contents(of path: String, maximumBytes: Int = .max) throws(Errno) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer {
            do throws(Errno) {
                try descriptor.close()
            } catch {
                // Nothing was written through this descriptor, so a failed close loses nothing,
                // and Linux releases the descriptor either way.
            }
        }
        return try descriptor.read(upToCount: maximumBytes)
    }
}
