import SystemSupport

/// Why the state directory cannot be used, or why a save did not happen. Each case names the
/// path and, for a failed system call, its `Errno`.
///
/// Apart from ``notDurable(path:directory:_:)``, a failed save changes nothing on disk: the
/// previous file is still there, whole.
public enum StateStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The steps of an atomic save, in order.
    public enum SaveStep: String, Sendable, Hashable, CustomStringConvertible {
        /// Creating the temporary file beside the target (`open`).
        case create
        /// Writing the new contents to it (`write`).
        case write
        /// Flushing it to the device (`fsync`).
        case sync
        /// Closing it (`close`).
        case close
        /// Renaming it over the target (`rename`).
        case rename

        public var description: String { rawValue }
    }

    /// Nothing is at the state directory's path (or a parent of it) and it could not be
    /// created; `path` is the directory that `mkdir` failed on.
    case cannotCreateDirectory(path: String, Errno)
    /// The state directory's path could not be looked at (`stat` failed), e.g. a parent may not
    /// be searched.
    case cannotExamineDirectory(path: String, Errno)
    /// Something other than a directory is at the state directory's path.
    case notADirectory(path: String)
    /// Files cannot be created in the state directory: no permission, or a read-only mount.
    case directoryNotWritable(path: String, Errno)
    /// The value would make a file the daemon could not read back, so nothing was written.
    case invalidValue(path: String, StateFileDefect)
    /// A step of the save failed, so the previous file is unchanged. `temporaryPath` is the file
    /// the new contents went to; `cleanupError` is set when it could not be removed again (the
    /// next save or start removes it).
    case saveFailed(path: String, step: SaveStep, temporaryPath: String, Errno, cleanupError: Errno?)
    /// The new contents are in place, but syncing the directory failed, so the rename may not
    /// survive a power cut.
    case notDurable(path: String, directory: String, Errno)

    /// The file or directory the error is about.
    public var path: String {
        switch self {
        case .cannotCreateDirectory(let path, _), .cannotExamineDirectory(let path, _), .notADirectory(let path),
            .directoryNotWritable(let path, _), .invalidValue(let path, _), .saveFailed(let path, _, _, _, _),
            .notDurable(let path, _, _):
            return path
        }
    }

    /// The system call's error, when a system call failed.
    public var errno: Errno? {
        switch self {
        case .cannotCreateDirectory(_, let error), .cannotExamineDirectory(_, let error),
            .directoryNotWritable(_, let error), .saveFailed(_, _, _, let error, _), .notDurable(_, _, let error):
            return error
        case .notADirectory, .invalidValue:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let error):
            return "cannot create the state directory \(path): \(error)"
        case .cannotExamineDirectory(let path, let error):
            return "cannot examine the state directory \(path): \(error)"
        case .notADirectory(let path):
            return "the state directory \(path) is not a directory"
        case .directoryNotWritable(let path, let error):
            return "the state directory \(path) is not writable: \(error)"
        case .invalidValue(let path, let defect):
            return "not saving \(path): \(defect); the previous contents are unchanged"
        case .saveFailed(let path, let step, let temporaryPath, let error, let cleanupError):
            var text =
                "cannot save \(path): \(step) of \(temporaryPath) failed: \(error); the previous contents are unchanged"
            if let cleanupError { text += " (and removing \(temporaryPath) failed: \(cleanupError))" }
            return text
        case .notDurable(let path, let directory, let error):
            return "saved \(path), but syncing \(directory) failed: \(error); the change may not survive a power cut"
        }
    }
}
