@preconcurrency import Glibc
import Synchronization
import SystemSupport

/// An attribute of ``LinuxSysfs`` kept open for writing and reading back: each value is one
/// `pwrite(2)` at offset 0 on the descriptor opened once, with no path walk and no close per
/// value, and each read-back one `pread(2)` at offset 0.
///
/// On sysfs every write calls the attribute's `store()` with exactly the bytes written, whatever
/// the offset, and truncation does nothing (kernfs ignores size changes, which is why `O_TRUNC`
/// works there). On an ordinary file (the temporary trees of tests, `--simulate` and
/// `make bench`) a shorter value written at 0 would leave the tail of the longer one before it,
/// so each value first cuts the file to nothing, as `O_TRUNC` did when every write opened the
/// path. One `ftruncate` per pulse edge is cheaper than telling the two apart, which Swift's
/// Glibc module cannot do without `fstatfs`.
final class LinuxSysfsAttribute: SysfsAttributeWriter {
    let path: String
    private let descriptor: FileDescriptor
    /// Set by the first `close()`, so that the descriptor is closed exactly once.
    private let isClosed = Atomic(false)

    /// Opens `fullPath` for writing and reading.
    /// - Parameters:
    ///   - path: The path relative to the root, for errors.
    ///   - fullPath: The path to open.
    /// - Throws: The `Errno` of `open`.
    init(path: String, fullPath: String) throws(Errno) {
        self.path = path
        descriptor = try FileDescriptor.open(fullPath, .readWrite)
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
                try descriptor.resize(to: 0)
                // One write is one store(): a short one would have stored part of the number.
                if try descriptor.write(toAbsoluteOffset: 0, bytes) != bytes.count { throw .ioError }
            }
        }
        if case .failure(let error) = result { throw SysfsError(path: path, errno: error) }
    }

    func readValue() throws(SysfsError) -> UInt64? {
        precondition(!isClosed.load(ordering: .acquiring), "\(path) read after it was closed")
        do throws(Errno) {
            // A file removed while open (a test tree's `rm`) still reads what was written last.
            guard try descriptor.linkCount() > 0 else { throw Errno.noSuchFileOrDirectory }
            let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                Result { () throws(Errno) in
                    let count = try descriptor.read(fromAbsoluteOffset: 0, into: UnsafeMutableRawBufferPointer(buffer))
                    return Self.number(in: UnsafeBufferPointer(rebasing: buffer[..<count]))
                }
            }
            return try result.get()
        } catch {
            throw SysfsError(path: path, errno: error)
        }
    }

    /// The decimal number a value holds, before its newline; nil for anything else.
    private static func number(in bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    func close() throws(SysfsError) {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        do throws(Errno) {
            try descriptor.close()
        } catch {
            throw SysfsError(path: path, errno: error)
        }
    }
}
