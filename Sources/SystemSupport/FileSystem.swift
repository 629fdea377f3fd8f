@preconcurrency import Glibc

/// Calls on paths rather than descriptors: `stat`, `mkdir`, `access`, `rename` and `unlink`,
/// each wrapped once here.
public enum FileSystem {
    /// What is at a path.
    public enum Kind: Sendable, Hashable {
        /// A directory.
        case directory
        /// A regular file.
        case regularFile
        /// Anything else: a device, a socket, a FIFO.
        case other

        /// The kind that `st_mode`'s type bits name.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFDIR: self = .directory
            case S_IFREG: self = .regularFile
            default: self = .other
            }
        }
    }

    /// What `stat(2)` says of the file at `path`, following symbolic links (called as
    /// `fstatat(AT_FDCWD, path, …, 0)`, the same call, because Swift reads `stat` as the struct).
    /// The one call of it on a path here.
    ///
    /// - Parameter path: The path to look at.
    /// - Returns: Its status, or nil when nothing is there (`ENOENT`, including a dangling
    ///   symbolic link).
    /// - Throws: Any other `Errno`, e.g. `EACCES` for a parent that may not be searched or
    ///   `ENOTDIR` when a parent is a file.
    public static func status(of path: String) throws(Errno) -> FileStatus? {
        var status = stat()
        switch SystemCall.valueOrErrno({ fstatat(AT_FDCWD, path, &status, 0) }) {
        case .success:
            return FileStatus(status)
        case .failure(let error) where error == .noSuchFileOrDirectory:
            return nil
        case .failure(let error):
            throw error
        }
    }

    /// What is at `path`, following symbolic links (``status(of:)``).
    ///
    /// - Returns: The kind of file, or nil when nothing is there.
    /// - Throws: As ``status(of:)``.
    public static func kind(of path: String) throws(Errno) -> Kind? { try status(of: path)?.kind }

    /// Creates one directory. Corresponds to `mkdir(2)`.
    ///
    /// - Parameters:
    ///   - path: The directory to create; its parent must exist.
    ///   - permissions: Its mode bits (the umask still applies).
    /// - Throws: The `Errno` that `mkdir` failed with, e.g. `EEXIST`, `ENOENT` for a missing
    ///   parent, `EACCES`, `EROFS`.
    public static func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) {
        _ = try SystemCall.valueOrErrno { mkdir(path, mode_t(permissions)) }.get()
    }

    /// Checks that this process may create and remove files in a directory (write and search
    /// permission). Corresponds to `access(2)` with `W_OK | X_OK`.
    ///
    /// `access` checks with the real user id, which is the daemon's own; for root it passes
    /// whatever the mode bits say, but it still reports a read-only mount (`EROFS`).
    ///
    /// - Parameter path: The directory.
    /// - Throws: The `Errno` that `access` failed with, e.g. `EACCES` or `EROFS`.
    public static func checkWritableDirectory(_ path: String) throws(Errno) {
        _ = try SystemCall.valueOrErrno { access(path, W_OK | X_OK) }.get()
    }

    /// Gives a file a new name, atomically replacing whatever had that name. Corresponds to
    /// `rename(2)`.
    ///
    /// - Parameters:
    ///   - source: The current path.
    ///   - destination: The new path, in the same file system.
    /// - Throws: The `Errno` that `rename` failed with, e.g. `ENOENT`, `EXDEV`, `EIO`.
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try SystemCall.valueOrErrno { Glibc.rename(source, destination) }.get()
    }

    /// Makes `path` a symbolic link to `target` (kept as written, relative or not). Corresponds
    /// to `symlink(2)`.
    ///
    /// - Throws: The `Errno` that `symlink` failed with, e.g. `EEXIST`, `ENOENT`, `EACCES`.
    public static func makeSymbolicLink(to target: String, at path: String) throws(Errno) {
        _ = try SystemCall.valueOrErrno { symlink(target, path) }.get()
    }

    /// Removes an empty directory. Corresponds to `rmdir(2)`.
    /// - Throws: The `Errno` that `rmdir` failed with, e.g. `ENOENT`, `ENOTEMPTY`.
    public static func removeDirectory(_ path: String) throws(Errno) {
        _ = try SystemCall.valueOrErrno { rmdir(path) }.get()
    }

    /// Removes a directory of files (no directory inside it), at most `maximumFiles` of them,
    /// then the directory; nothing when it is not there.
    public static func removeDirectoryOfFiles(_ path: String, maximumFiles: Int) throws(Errno) {
        let names: [String]
        do throws(Errno) {
            names = try Self.names(inDirectory: path, maximum: maximumFiles)
        } catch where error == .noSuchFileOrDirectory {
            return
        }
        for name in names { try removeFile(path + "/" + name) }
        try removeDirectory(path)
    }

    /// Removes a name of a file (not a directory). Corresponds to `unlink(2)`.
    ///
    /// - Parameter path: The file to remove.
    /// - Throws: The `Errno` that `unlink` failed with, e.g. `ENOENT`, `EISDIR`, `EACCES`.
    public static func removeFile(_ path: String) throws(Errno) {
        _ = try SystemCall.valueOrErrno { unlink(path) }.get()
    }

    /// When the file (or directory) at `path` was last modified, POSIX seconds (``status(of:)``).
    /// - Throws: The `Errno` that `stat` failed with, e.g. `ENOENT`.
    public static func modificationSeconds(of path: String) throws(Errno) -> Double {
        guard let status = try status(of: path) else { throw .noSuchFileOrDirectory }
        return status.modificationSeconds
    }

    /// Sets the file's modification time to `seconds` (POSIX), leaving its access time.
    /// Corresponds to `utimensat(2)`.
    /// - Throws: The `Errno` that `utimensat` failed with, e.g. `ENOENT`.
    public static func setModificationTime(of path: String, to seconds: Double) throws(Errno) {
        // UTIME_OMIT (<bits/stat.h>) is a macro Swift does not import.
        let omit = (1 << 30) - 2
        let whole = seconds.rounded(.down)
        var times = (timespec(tv_sec: 0, tv_nsec: omit), timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9)))
        _ = try withUnsafePointer(to: &times) { pointer in
            pointer.withMemoryRebound(to: timespec.self, capacity: 2) { times in
                Result { () throws(Errno) in try SystemCall.valueOrErrno { utimensat(AT_FDCWD, path, times, 0) }.get() }
            }
        }.get()
    }

    /// The names in a directory, without `.` and `..`, in no order, at most `maximum` of them.
    /// Corresponds to `opendir(3)` and `readdir(3)`.
    /// - Throws: The `Errno` that `opendir` failed with, e.g. `ENOENT`, `ENOTDIR`.
    public static func names(inDirectory path: String, maximum: Int) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno.current }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < maximum, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What a symbolic link points to, at most `PATH_MAX` bytes. Corresponds to `readlink(2)`
    /// (which `/proc/PID/fd/N` answers with the open file's path).
    /// - Throws: The `Errno` that `readlink` failed with, e.g. `EINVAL` for no link.
    public static func linkTarget(of path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        guard count >= 0 else { throw Errno.current }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The absolute path of `path` with no link, `.` or `..` in it. Corresponds to `realpath(3)`.
    /// - Throws: The `Errno` that `realpath` failed with, e.g. `ENOENT`.
    public static func canonicalPath(_ path: String) throws(Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw Errno.current }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Bytes an unprivileged process may still write on the volume holding `path`.
    /// Corresponds to `statvfs(3)`.
    public static func availableBytes(onVolumeOf path: String) throws(Errno) -> UInt64 {
        var volume = statvfs()
        guard statvfs(path, &volume) == 0 else { throw Errno.current }
        return UInt64(volume.f_bavail) * UInt64(volume.f_frsize)
    }

    /// The user and group owning the file (or directory) at `path` (``status(of:)``).
    /// - Throws: The `Errno` that `stat` failed with, e.g. `ENOENT`.
    public static func owner(of path: String) throws(Errno) -> (user: UInt32, group: UInt32) {
        guard let status = try status(of: path) else { throw .noSuchFileOrDirectory }
        return status.owner
    }

    /// Gives the file (or directory) at `path` to `user` and `group`, without following a
    /// symbolic link. Corresponds to `lchown(2)`; only root may give a file away.
    /// - Throws: The `Errno` that `lchown` failed with, e.g. `EPERM`.
    public static func changeOwner(of path: String, to owner: (user: UInt32, group: UInt32)) throws(Errno) {
        _ = try SystemCall.valueOrErrno { lchown(path, owner.user, owner.group) }.get()
    }
}
