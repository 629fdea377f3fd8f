@preconcurrency import Glibc

/// The real sysfs, through open/read/write/close, under a root directory: `/` on the device,
/// a temporary directory in tests and in `--simulate`.
public struct LinuxSysfs: SysfsFileSystem {
    /// The directory that stands for `/`.
    public let root: String

    /// Sysfs under `root` (default `/`).
    public init(root: String = "/") {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    private func full(_ path: String) -> String { root + path }

    public func read(_ path: String) throws(SysfsError) -> String {
        let descriptor = open(full(path), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SysfsError(path: path, errno: errno) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var count = 0
        repeat {
            count = Glibc.read(descriptor, &buffer, buffer.count)
        } while count < 0 && errno == EINTR
        guard count >= 0 else { throw SysfsError(path: path, errno: errno) }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    public func write(_ value: String, to path: String) throws(SysfsError) {
        let bytes = Array((value + "\n").utf8)
        let result = full(path).withCString { fullPath in
            bytes.withUnsafeBytes { Self.writeWhole(path: UnsafeRawPointer(fullPath).assumingMemoryBound(to: UInt8.self), $0) }
        }
        guard result == 0 else { throw SysfsError(path: path, errno: result) }
    }

    /// open, one write, close: the one place these calls are made.
    /// - Returns: 0, or the errno of the step that failed.
    private static func writeWhole(path: UnsafePointer<UInt8>, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        // O_TRUNC matters for ordinary files (tests, simulation); sysfs ignores it.
        let descriptor = path.withMemoryRebound(to: CChar.self, capacity: 1) { open($0, O_WRONLY | O_CLOEXEC | O_TRUNC) }
        guard descriptor >= 0 else { return errno }
        var written = 0
        repeat {
            written = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        } while written < 0 && errno == EINTR
        let writeErrno = errno
        // sysfs reports some errors only at close.
        let closed = close(descriptor)
        guard written == bytes.count else { return written < 0 ? writeErrno : EIO }
        return closed == 0 ? 0 : errno
    }

    /// Without a heap allocation: the path and the digits are put together on the stack.
    public func write(_ value: UInt64, to path: String) throws(SysfsError) {
        var root = root
        var path = path
        let result: Int32 = root.withUTF8 { rootBytes in
            path.withUTF8 { pathBytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rootBytes.count + pathBytes.count + 1) { fullPath in
                    _ = fullPath.initialize(fromContentsOf: rootBytes)
                    _ = fullPath[rootBytes.count...].initialize(fromContentsOf: pathBytes)
                    fullPath[rootBytes.count + pathBytes.count] = 0
                    // 20 digits hold any UInt64, plus the newline.
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
                        var start = 20
                        digits[20] = UInt8(ascii: "\n")
                        var rest = value
                        repeat {
                            start -= 1
                            digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                            rest /= 10
                        } while rest > 0
                        return Self.writeWhole(
                            path: fullPath.baseAddress!, UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
                    }
                }
            }
        }
        guard result == 0 else { throw SysfsError(path: path, errno: result) }
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
