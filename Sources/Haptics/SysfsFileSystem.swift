import SystemSupport

/// The file operations the sysfs PWM code performs, on paths relative to a root (`/` in
/// production). Behind a protocol so that tests run the real channel logic against a tree that
/// enforces the kernel's rules, which an ordinary directory cannot (it accepts any write).
public protocol SysfsFileSystem: Sendable {
    /// The contents of a file, without the trailing newline.
    func read(_ path: String) throws(SysfsError) -> String
    /// Writes `value` to an attribute, as one `write(2)`, the way sysfs expects.
    func write(_ value: String, to path: String) throws(SysfsError)
    /// Opens an attribute once for many writes and read-backs, for the motor's duty, written at
    /// every pulse edge, and its output's `enable`, read back about once a second; rarer writes
    /// go through ``write(_:to:)``.
    /// - Parameter path: The attribute, relative to the root.
    /// - Returns: The attribute, open until its `close()` or its deinit.
    /// - Throws: `SysfsError` naming `path`, e.g. `ENOENT` or `EACCES`.
    func openAttribute(_ path: String) throws(SysfsError) -> any SysfsAttributeWriter
    /// Whether something exists at `path`.
    func exists(_ path: String) -> Bool
    /// Whether this process may write `path` now (udev may not have granted it yet).
    func isWritable(_ path: String) -> Bool
    /// The target of a symbolic link, or nil.
    func linkTarget(_ path: String) -> String?
    /// The names in a directory, or [] when it cannot be read.
    func contents(of directory: String) -> [String]
    /// Where `path` is on disk (the root prefixed), for messages that must name the place
    /// searched.
    func onDisk(_ path: String) -> String
}

extension SysfsFileSystem {
    /// `path` itself: a tree with no root of its own.
    public func onDisk(_ path: String) -> String { path }
}

/// A failed sysfs operation: which file and the kernel's error.
public struct SysfsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path relative to the root, e.g. `/sys/class/pwm/pwmchip0/export`.
    public var path: String
    /// The kernel's error.
    public var errno: Errno

    /// An error for a path.
    public init(path: String, errno: Errno) {
        self.path = path
        self.errno = errno
    }

    /// An error for a path, the error as the C library's number.
    public init(path: String, errno: Int32) { self.init(path: path, errno: Errno(rawValue: errno)) }

    public var description: String { "\(path): \(errno)" }
}
