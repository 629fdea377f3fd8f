@preconcurrency import Glibc
import Synchronization
import SystemSupport

/// An attribute of ``LinuxSysfs`` kept open for writing: each value is one `pwrite(2)` at
/// offset 0 on the descriptor opened once, with no path walk and no close per value.
///
/// On sysfs every write calls the attribute's `store()` with exactly the bytes written, whatever
/// the offset, and truncation does nothing. On an ordinary file (the temporary trees of tests,
/// `--simulate` and `make bench`) a shorter value written at 0 would leave the tail of the longer
/// one before it, so there the file is first cut to nothing, as `O_TRUNC` did when every write
/// opened the path. Which of the two applies is found once, at open.
final class LinuxSysfsAttribute: SysfsAttributeWriter {
    let path: String
    private let descriptor: FileDescriptor
    /// Set by the first `close()`, so that the descriptor is closed exactly once.
    private let isClosed = Atomic(false)
    /// Whether each value must first cut the file (not on sysfs).
    private let truncatesBeforeWriting: Bool

    /// Opens `fullPath` for writing.
    /// - Parameters:
    ///   - path: The path relative to the root, for errors.
    ///   - fullPath: The path to open.
    /// - Throws: The `Errno` of `open` or `fstatfs`.
    init(path: String, fullPath: String) throws(Errno) {
        self.path = path
        let descriptor = try FileDescriptor.open(fullPath, .writeOnly)
        do throws(Errno) {
            truncatesBeforeWriting = try descriptor.fileSystemType() != .sysfs
        } catch {
            do throws(Errno) {
                try descriptor.close()
            } catch {
                // Nothing was written through it; Linux releases the descriptor either way.
            }
            throw error
        }
        self.descriptor = descriptor
    }

    deinit {
        do throws(SysfsError) {
            try close()
        } catch {
            // No one is left to tell; every value written was already checked at its write.
        }
    }

    func write(_ value: UInt64) throws(SysfsError) {
        // After close the number may already belong to another file.
        precondition(!isClosed.load(ordering: .acquiring), "\(path) written after it was closed")
        let result = LinuxSysfs.withDecimalLine(value) { bytes in
            Result { () throws(Errno) in
                if truncatesBeforeWriting { try descriptor.resize(to: 0) }
                // One write is one store(): a short one would have stored part of the number.
                if try descriptor.write(toAbsoluteOffset: 0, bytes) != bytes.count { throw .ioError }
            }
        }
        if case .failure(let error) = result { throw SysfsError(path: path, errno: error.rawValue) }
    }

    func close() throws(SysfsError) {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        do throws(Errno) {
            try descriptor.close()
        } catch {
            throw SysfsError(path: path, errno: error.rawValue)
        }
    }
}
