@preconcurrency import Glibc

/// What `stat(2)` says of a file, the parts the programs read: what it is, which file it is,
/// when it changed, whose it is.
public struct FileStatus: Sendable {
    /// What kind of file it is.
    public var kind: FileSystem.Kind
    /// Its inode number: a file renamed over it is another.
    public var inode: UInt64
    /// When it was last modified, POSIX seconds.
    public var modificationSeconds: Double
    /// The user and group owning it.
    public var owner: (user: UInt32, group: UInt32)
    /// Its size in bytes.
    public var bytes: Int

    init(_ status: stat) {
        kind = FileSystem.Kind(mode: status.st_mode)
        inode = UInt64(status.st_ino)
        modificationSeconds = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        owner = (status.st_uid, status.st_gid)
        bytes = Int(status.st_size)
    }
}
