/// Whole reads and writes built on the single `read` and `write` calls of ``FileDescriptor``:
/// `read(2)` and `write(2)` may move fewer bytes than asked, so callers that want a whole file,
/// or a whole line written, loop. No C call is made here.
extension FileDescriptor {
    /// Bytes asked for per `read` call.
    static let readChunkBytes = 65_536
    /// The most room ``readAll(upToCount:using:)`` makes before reading: 16 MiB.
    static let maximumReservedBytes = 16 << 20

    /// Reads until the end of the file, or until `maximumBytes` bytes have been read.
    ///
    /// To refuse a file larger than a limit, ask for one byte more than the limit and check the
    /// count.
    ///
    /// - Parameter maximumBytes: The most bytes to read; not negative.
    /// - Returns: The bytes read: all of the rest of the file when it has at most `maximumBytes`.
    /// - Throws: The `Errno` that `read` failed with, e.g. `EIO`, or `EISDIR` for a directory.
    public func read(upToCount maximumBytes: Int) throws(Errno) -> [UInt8] {
        try Self.readAll(upToCount: maximumBytes) { buffer throws(Errno) in try read(into: buffer) }
    }

    /// Writes every byte, looping over short writes; see ``writeAll(_:using:)``.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try Self.writeAll(bytes) { buffer throws(Errno) in try write(buffer) }
    }

    /// The read loop, over any single read (a descriptor's, or a file system's that tests can
    /// fail at will): reads until one returns 0 or `maximumBytes` bytes have come.
    ///
    /// - Parameters:
    ///   - maximumBytes: The most bytes to read; not negative.
    ///   - readOnce: One `read(2)` into the buffer; returns the count, 0 at the end.
    /// - Throws: What `readOnce` threw.
    public static func readAll(
        upToCount maximumBytes: Int, using readOnce: (UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    ) throws(Errno) -> [UInt8] {
        precondition(maximumBytes >= 0, "cannot read \(maximumBytes) bytes")
        var bytes: [UInt8] = []
        // Room for the whole file at once, so it is not copied as it grows: address space only,
        // since a page not yet read into is not resident (large blocks are mapped on their own,
        // see HeapPolicy). Capped, for limits far beyond any file read.
        bytes.reserveCapacity(min(maximumBytes, maximumReservedBytes))
        var chunk = [UInt8](repeating: 0, count: min(maximumBytes, readChunkBytes))
        while bytes.count < maximumBytes {
            let wanted = min(chunk.count, maximumBytes - bytes.count)
            // `withUnsafeMutableBytes` rethrows untyped errors, so the Errno travels in a Result.
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try readOnce(UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])) }
            }
            let count = try result.get()
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// The write loop, over any single write: writes every byte, looping over short writes (a
    /// nearly full disk, a file size limit); the write after a short one reports why it was
    /// short.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to write.
    ///   - writeOnce: One `write(2)` of the buffer; returns the count written.
    /// - Throws: What `writeOnce` threw, e.g. `ENOSPC`, `EIO`, `EFBIG` (some of the bytes may
    ///   have been written), or `EIO` when a write wrote nothing.
    public static func writeAll(
        _ bytes: [UInt8], using writeOnce: (UnsafeRawBufferPointer) throws(Errno) -> Int
    ) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) in try writeOnce(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }
            let written = try result.get()
            // write(2) returns 0 for a non-empty buffer only on exotic devices; treat it as an
            // I/O error rather than loop forever.
            guard written > 0 else { throw .ioError }
            offset += written
        }
    }
}
