/// Why ``FileReading/contents(ofRegularFile:maximumBytes:followingLinks:)`` read nothing.
public enum FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing is at the path (`ENOENT`).
    case missing
    /// The path is a symbolic link, and links are not followed there.
    case symbolicLink
    /// The path is a directory, FIFO, socket or device rather than a regular file.
    case notRegularFile(FileSystem.Kind)
    /// The file is larger than the limit, in bytes; it was not read past it.
    case tooLarge(limitBytes: Int)
    /// A call failed, e.g. `EACCES` or `EIO`.
    case failed(Errno)

    /// The reason in a few words, for a message that names the file.
    public var description: String {
        switch self {
        case .missing: Errno.noSuchFileOrDirectory.message
        case .symbolicLink: "is a symbolic link, which is not followed here"
        case .notRegularFile(.directory): "is a directory, not a regular file"
        case .notRegularFile: "is not a regular file (a FIFO, socket or device)"
        case .tooLarge(let limit): "is larger than \(limit) bytes"
        case .failed(let error): error.message
        }
    }
}
