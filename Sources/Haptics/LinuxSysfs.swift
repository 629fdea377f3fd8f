@preconcurrency import Glibc
import SystemSupport

/// The real sysfs, through open/read/write/close (and `pwrite` for an attribute kept open),
/// under a root directory: `/` on the device, a temporary directory in tests and in
/// `--simulate`.
public struct LinuxSysfs: SysfsFileSystem {
    /// The directory that stands for `/`.
    public let root: String

    /// Sysfs under `root` (default `/`).
    public init(root: String = "/") {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    private func full(_ path: String) -> String { root + path }

    public func onDisk(_ path: String) -> String { full(path) }

    /// The motor's lock for `chip` (``PWMChannelLock``): on its `npwm`, under this root.
    /// - Throws: `PWMError`: no such chip, or the lock held elsewhere or not taken.
    public func lockChip(_ chip: SysfsPWMChannel.Chip) throws(PWMError) -> PWMChannelLock {
        let name = try SysfsPWMChannel.resolve(chip, in: self)
        return try PWMChannelLock.take(full(SysfsPWMChannel.classDirectory + "/" + name + "/npwm"))
    }

    public func read(_ path: String) throws(SysfsError) -> String {
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(full(path), .readOnly)
            defer {
                do throws(Errno) {
                    try descriptor.close()
                } catch {
                    // Nothing was written through it; Linux releases the descriptor either way.
                }
            }
            // The attributes read here are a number or a word; 256 bytes is ample.
            var text = String(decoding: try descriptor.read(upToCount: 256), as: UTF8.self)
            while text.last == "\n" { text.removeLast() }
            return text
        } catch {
            throw SysfsError(path: path, errno: error)
        }
    }

    public func write(_ value: String, to path: String) throws(SysfsError) {
        let bytes = Array((value + "\n").utf8)
        let result = full(path).withCString { fullPath in
            bytes.withUnsafeBytes { bytes in Result { () throws(Errno) in try Self.writeWhole(path: fullPath, bytes) } }
        }
        if case .failure(let error) = result { throw SysfsError(path: path, errno: error) }
    }

    /// open, one write, close: a sysfs attribute takes its value in one write(2), and reports
    /// some errors only at close.
    /// - Throws: the `Errno` of the first step that failed; `EIO` for a short write.
    private static func writeWhole(path: UnsafePointer<CChar>, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        // O_TRUNC matters for ordinary files (tests, simulation); sysfs ignores it.
        let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.truncate])
        var failure: Errno?
        do throws(Errno) {
            if try descriptor.write(bytes) != bytes.count { failure = .ioError }
        } catch {
            failure = error
        }
        do throws(Errno) {
            try descriptor.close()
        } catch {
            if failure == nil { failure = error }
        }
        if let failure { throw failure }
    }

    /// Opens the attribute once: each value is then one `pwrite(2)` on the descriptor kept open
    /// (see `LinuxSysfsAttribute`).
    public func openAttribute(_ path: String) throws(SysfsError) -> any SysfsAttributeWriter {
        do throws(Errno) {
            return try LinuxSysfsAttribute(path: path, fullPath: full(path))
        } catch {
            throw SysfsError(path: path, errno: error)
        }
    }

    /// The digits of `UInt64.max`.
    private static let maximumDigits = 20

    /// Calls `body` with `value` in decimal and a newline, put together on the stack: the
    /// motor's duty goes this way at every pulse edge and must not allocate.
    static func withDecimalLine<Value>(_ value: UInt64, _ body: (UnsafeRawBufferPointer) -> Value) -> Value {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDigits + 1) { digits in
            var start = maximumDigits
            digits[maximumDigits] = UInt8(ascii: "\n")
            var rest = value
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
        }
    }

    public func exists(_ path: String) -> Bool { access(full(path), F_OK) == 0 }

    public func isWritable(_ path: String) -> Bool { access(full(path), W_OK) == 0 }

    public func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(full(path), &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func contents(of directory: String) -> [String] {
        guard let handle = opendir(full(directory)) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
