/// Which file an open descriptor refers to, as the kernel names files in `/proc/locks`: the
/// device's major and minor numbers and the inode number.
public struct FileIdentity: Sendable, Hashable {
    /// The device's major number.
    public var major: UInt32
    /// The device's minor number.
    public var minor: UInt32
    /// The inode number.
    public var inode: UInt64

    /// An identity from its parts.
    public init(major: UInt32, minor: UInt32, inode: UInt64) {
        self.major = major
        self.minor = minor
        self.inode = inode
    }

    /// The process holding a `flock` lock on this file, from the text of `/proc/locks`, where a
    /// line reads `1: FLOCK  ADVISORY  WRITE 1234 00:19:5678 0 EOF` (the device in hex, the
    /// inode in decimal). Nil when no line names it, or the lock is an open file description
    /// lock with no process (`-1`).
    ///
    /// - Parameter locks: The contents of `/proc/locks`.
    public func flockHolder(in locks: String) -> Int32? {
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "->" marks a waiter, which shifts the fields by one.
            let offset = fields.count > 1 && fields[1] == "->" ? 1 : 0
            guard fields.count >= 6 + offset, fields[1 + offset] == "FLOCK" else { continue }
            let parts = fields[5 + offset].split(separator: ":")
            guard parts.count == 3, let major = UInt32(parts[0], radix: 16), let minor = UInt32(parts[1], radix: 16),
                let inode = UInt64(parts[2]), major == self.major, minor == self.minor, inode == self.inode,
                offset == 0, let process = Int32(fields[4]), process > 0
            else { continue }
            return process
        }
        return nil
    }
}
