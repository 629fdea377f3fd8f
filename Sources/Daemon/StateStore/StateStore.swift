import Core
import Synchronization
import SystemSupport

/// What the daemon keeps across restarts, in small JSON files in a state directory
/// (`/var/lib/waypointd` by default; systemd's `StateDirectory=` makes it).
///
/// One file per concern (see ``StateFile``), each an object with a `version`:
///
/// ```
/// target.json       {"destination": {"lat": 48.8584, "lon": 2.2945, "name": "Eiffel Tower"}, "route": null,
///                    "version": 1}
///                   {"destination": null, "route": {"index": 1, "name": "Loop", "waypoints": […]},
///                    "version": 1}                                      (a route, the leg reached)
///                   {"destination": null, "route": null, "version": 1}  (no target)
/// recent.json       {"recent": [{"lat": …, "lon": …, "name": …}, …], "version": 1}   newest first, ≤ 5
/// mute.json         {"muted": true, "version": 1}
/// calibration.json  {"calibration": {"createdAt": "2026-05-01T12:00:00.000Z",
///                                    "matrix": [[…], […], […]], "offset": [bx, by, bz],
///                                    "quality": {"coveragePercent": …, "fitErrorPercent": …,
///                                                "fittedFieldMicrotesla": …,
///                                                "referenceFieldMicrotesla": …, "sampleCount": …}},
///                    "version": 1}                                  or "calibration": null
/// ```
///
/// Latitude and longitude are degrees (WGS84); `name` is omitted when there is none;
/// `offset` (µT) and `matrix` (row by row) mean `calibrated = matrix · (raw − offset)`, as in
/// recordings; each quality figure is omitted when unknown. The files are pretty-printed with
/// sorted keys and end in a newline.
///
/// **Saving** is atomic and durable: the new contents go to `<name>.tmp` in the same directory
/// (created exclusively, mode 0600), which is written, `fsync`ed, closed and renamed over the
/// file; then the directory is `fsync`ed so the rename itself survives a power cut. If any step
/// before the rename fails, the temporary file is removed and the previous file is untouched,
/// and the error names the path, the step and the `errno`.
///
/// **Loading** never fails as a whole: a missing file means the default for its item; a damaged
/// file (not JSON, wrong types, out-of-range or non-finite numbers, an unknown version) is
/// renamed to `<name>.corrupt`, replacing an older one so only the newest is kept, and reported
/// in the ``LoadReport``; the item starts from its default and every other file is still used.
///
/// The calls block (an `fsync` on an SD card can take tens of milliseconds). One store's calls
/// are serialized, so two saves of the same file never share a temporary file; two daemons on
/// one directory are not supported.
public final class StateStore: Sendable {
    /// Where the state lives unless configured otherwise; systemd's `StateDirectory=waypointd`.
    public static let defaultDirectory = "/var/lib/waypointd"

    /// Mode of a state directory this store has to create itself (running outside systemd,
    /// or with `--state-dir`): owner only. The files hold where the wearer goes, which nobody
    /// else on the device needs (`waypointctl` asks the daemon over the socket), and 0700 is
    /// also what `StateDirectory=` gives with `StateDirectoryMode=0700`. A directory that
    /// already exists is left with the mode it has: systemd or the administrator chose it.
    public static let directoryPermissions: UInt32 = 0o700

    /// Mode of every state file: owner read and write, for the same reason.
    public static let filePermissions: UInt32 = 0o600

    /// The state directory, as given (without a trailing slash).
    public let directory: String

    private let fileSystem: any StateFileSystem
    /// Serializes the store's file operations: saves share one temporary name per file.
    private let serializer = Mutex(())

    /// Why every save is refused: the directory could be read but not written when the store
    /// was opened (ext4 remounts a failing SD card read-only), and the store was opened to read
    /// anyway; nil when it can be written.
    public let readOnlyReason: StateStoreError?

    /// Opens the state directory, creating it (and missing parents) with mode 0700 if it does
    /// not exist, and checks that files can be created in it.
    ///
    /// - Parameters:
    ///   - directory: The state directory.
    ///   - fileSystem: The system calls to use; tests pass one that fails on purpose.
    ///   - readingIfNotWritable: Open a directory that exists but cannot be written, to read
    ///     it, with every save refused (``readOnlyReason``), rather than throw: the daemon
    ///     guides on what it can load.
    /// - Throws: ``StateStoreError/cannotCreateDirectory(path:_:)``,
    ///   ``StateStoreError/cannotExamineDirectory(path:_:)``,
    ///   ``StateStoreError/notADirectory(path:)`` or
    ///   ``StateStoreError/directoryNotWritable(path:_:)``, each naming the path.
    public init(
        directory: String = StateStore.defaultDirectory, fileSystem: any StateFileSystem = LinuxStateFileSystem(),
        readingIfNotWritable: Bool = false
    )
        throws(StateStoreError)
    {
        var trimmed = directory
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.directory = trimmed
        self.fileSystem = fileSystem
        do throws(StateStoreError) {
            try Self.prepare(trimmed, fileSystem: fileSystem)
            readOnlyReason = nil
        } catch where readingIfNotWritable {
            guard case .directoryNotWritable = error else { throw error }
            readOnlyReason = error
        }
    }

    /// The path of one of the state files.
    ///
    /// - Parameter file: The file.
    /// - Returns: `directory/name`.
    public func path(of file: StateFile) -> String { join(file.fileName) }

    /// The path a damaged file is moved to.
    ///
    /// - Parameter file: The file.
    /// - Returns: `directory/name.corrupt`.
    public func corruptPath(of file: StateFile) -> String { join(file.corruptFileName) }

    /// The path a save writes to before renaming.
    ///
    /// - Parameter file: The file.
    /// - Returns: `directory/name.tmp`.
    public func temporaryPath(of file: StateFile) -> String { join(file.temporaryFileName) }

    private func join(_ name: String) -> String { directory == "/" ? "/" + name : directory + "/" + name }

    // MARK: - Loading

    /// Reads every state file.
    ///
    /// Damaged files are moved aside as `<name>.corrupt`, temporary files left by interrupted
    /// saves are removed, and each of these is reported; the items concerned start from their
    /// defaults.
    ///
    /// - Returns: The state, and what was found on the way.
    public func load() -> (state: PersistentState, report: LoadReport) {
        serializer.withLock { _ in
            var report = LoadReport()
            var state = PersistentState.initial
            for file in StateFile.allCases {
                removeLeftover(file, report: &report)
                switch loadBytes(file.fileName, maximumBytes: file.maximumBytes, report: &report) {
                case .loaded(let bytes):
                    do throws(StateFileDefect) {
                        try StateFileCoding.decode(file, bytes, into: &state)
                    } catch {
                        setAside(file.fileName, defect: error, report: &report)
                    }
                case .missing:
                    // An earlier build's files, until this one is first saved.
                    for name in file.legacyFileNames {
                        guard case .loaded(let bytes) = loadBytes(name, maximumBytes: file.maximumBytes, report: &report) else { continue }
                        do throws(StateFileDefect) {
                            try StateFileCoding.decodeLegacy(name, bytes, into: &state)
                        } catch {
                            setAside(name, defect: error, report: &report)
                        }
                    }
                case .unusable:
                    break
                }
            }
            // Renames and removals are directory changes; make them stick, or a power cut brings
            // the damaged file back (harmless: it would be set aside again).
            if !report.isClean {
                do throws(Errno) {
                    try syncDirectory()
                } catch {
                    report.entries.append(.directoryNotSynced(path: directory, error))
                }
            }
            return (state, report)
        }
    }

    /// What reading one file gave.
    private enum Loaded {
        case loaded([UInt8])
        case missing
        /// Unreadable, or not a regular file within its size (reported, set aside).
        case unusable
    }

    /// One file's bytes, by its name in the directory.
    private func loadBytes(_ name: String, maximumBytes: Int, report: inout LoadReport) -> Loaded {
        let path = join(name)
        do throws(FileReadError) {
            // Not following links: the state directory is ours, and a link planted in it must
            // not point the daemon at a file elsewhere.
            return .loaded(try fileSystem.contents(ofRegularFile: path, maximumBytes: maximumBytes, followingLinks: false))
        } catch {
            switch error {
            case .missing: return .missing
            case .failed(let error): report.entries.append(.unreadable(path: path, error))
            case .symbolicLink: setAside(name, defect: .symbolicLink, report: &report)
            case .notRegularFile(let kind): setAside(name, defect: .notRegularFile(kind), report: &report)
            case .tooLarge(let limit): setAside(name, defect: .tooLarge(limitBytes: limit), report: &report)
            }
            return .unusable
        }
    }

    /// Moves a damaged file to `<name>.corrupt`, replacing the older damaged copy: the newest
    /// one is the one worth looking at.
    private func setAside(_ name: String, defect: StateFileDefect, report: inout LoadReport) {
        let path = join(name)
        let corruptPath = join(name + StateFile.corruptSuffix)
        do throws(Errno) {
            try fileSystem.rename(path, to: corruptPath)
            report.entries.append(.setAside(path: path, corruptPath: corruptPath, defect: defect))
        } catch {
            report.entries.append(.notSetAside(path: path, defect: defect, error))
        }
    }

    /// Removes `<name>.tmp` left by a save that never reached its rename.
    private func removeLeftover(_ file: StateFile, report: inout LoadReport) {
        let path = temporaryPath(of: file)
        do throws(Errno) {
            try fileSystem.removeFile(path)
            report.entries.append(.removedLeftover(path: path))
        } catch  where error == .noSuchFileOrDirectory {
            // The usual case: no save was interrupted.
        } catch {
            report.entries.append(.leftoverNotRemoved(path: path, error))
        }
    }

    // MARK: - Saving

    /// Saves one file from the state: each file holds its own item (see ``StateFile``).
    ///
    /// - Parameters:
    ///   - file: The file to write.
    ///   - state: What the daemon keeps; only `file`'s item is written.
    /// - Throws: ``StateStoreError/invalidValue(path:_:)`` for a value the file could not hold
    ///   (a coordinate out of range, a non-finite number, a singular matrix: nothing written),
    ///   ``StateStoreError/saveFailed(path:step:temporaryPath:_:cleanupError:)`` when a system
    ///   call failed (the previous file is unchanged), or
    ///   ``StateStoreError/notDurable(path:directory:_:)``.
    public func save(_ file: StateFile, from state: PersistentState) throws(StateStoreError) {
        if let readOnlyReason { throw readOnlyReason }
        let bytes: [UInt8]
        do throws(StateFileDefect) {
            bytes = try StateFileCoding.encode(file, from: state)
        } catch {
            throw .invalidValue(path: path(of: file), error)
        }
        try serializer.withLock { _ throws(StateStoreError) in
            do throws(StateStoreError) {
                try replace(file, with: bytes)
            } catch {
                // A file that would hold its default (no target, no places) is the same as no
                // file: removing it needs no space and no temporary file, so a target cleared
                // when its file cannot be replaced does not come back after a restart. The file
                // holds its whole item, so no other file is left half-changed.
                guard case .saveFailed = error, let defaultBytes = try? StateFileCoding.encode(file, from: .initial),
                    bytes == defaultBytes, (try? removeToDefault(file)) != nil
                else { throw error }
                return
            }
            // Saved: the files it replaced would only mislead a later load, or an older build.
            do throws(Errno) {
                if try removeLegacy(of: file) { try syncDirectory() }
            } catch {
                throw .notDurable(path: path(of: file), directory: directory, error)
            }
        }
    }

    /// Removes a file and those it replaced, so that it loads as its default; nothing to remove
    /// is fine.
    private func removeToDefault(_ file: StateFile) throws(Errno) {
        var removed = try removeLegacy(of: file)
        do throws(Errno) {
            try fileSystem.removeFile(path(of: file))
            removed = true
        } catch where error == .noSuchFileOrDirectory {
            // Not there: it loads as its default already.
        }
        if removed { try syncDirectory() }
    }

    /// Removes the files `file` replaced (``StateFile/legacyFileNames``); whether any was there.
    private func removeLegacy(of file: StateFile) throws(Errno) -> Bool {
        var removed = false
        for name in file.legacyFileNames {
            do throws(Errno) {
                try fileSystem.removeFile(join(name))
                removed = true
            } catch where error == .noSuchFileOrDirectory {
                // Not there: nothing to remove.
            }
        }
        return removed
    }

    /// Replaces a file atomically: temporary file, write, fsync, close, rename, directory fsync.
    private func replace(_ file: StateFile, with bytes: [UInt8]) throws(StateStoreError) {
        let path = path(of: file)
        let temporaryPath = temporaryPath(of: file)

        /// Gives up before the rename: the target was never touched, so removing the temporary
        /// file restores exactly the state before the save.
        func abandon(_ step: StateStoreError.SaveStep, _ error: Errno, closing descriptor: FileDescriptor?)
            -> StateStoreError
        {
            if let descriptor {
                do throws(Errno) {
                    try fileSystem.close(descriptor)
                } catch {
                    // The file is being thrown away, so what close says about its data no longer
                    // matters; Linux releases the descriptor either way.
                }
            }
            var cleanupError: Errno?
            do throws(Errno) {
                try fileSystem.removeFile(temporaryPath)
            } catch  where error == .noSuchFileOrDirectory {
                // Already gone (the rename may have half-happened on a network file system).
            } catch {
                cleanupError = error
            }
            return .saveFailed(path: path, step: step, temporaryPath: temporaryPath, error, cleanupError: cleanupError)
        }

        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try createTemporaryFile(temporaryPath)
        } catch {
            throw .saveFailed(path: path, step: .create, temporaryPath: temporaryPath, error, cleanupError: nil)
        }
        do throws(Errno) {
            try FileDescriptor.writeAll(bytes) { buffer throws(Errno) in try fileSystem.write(descriptor, buffer) }
        } catch {
            throw abandon(.write, error, closing: descriptor)
        }
        do throws(Errno) {
            try fileSystem.sync(descriptor)
        } catch {
            throw abandon(.sync, error, closing: descriptor)
        }
        do throws(Errno) {
            try fileSystem.close(descriptor)
        } catch {
            throw abandon(.close, error, closing: nil)
        }
        do throws(Errno) {
            try fileSystem.rename(temporaryPath, to: path)
        } catch {
            throw abandon(.rename, error, closing: nil)
        }
        do throws(Errno) {
            try syncDirectory()
        } catch {
            throw .notDurable(path: path, directory: directory, error)
        }
    }

    /// Creates the temporary file exclusively, so nothing that already has its name (a link
    /// planted there, a file) is written through. A file left by a save that crashed is
    /// removed first.
    private func createTemporaryFile(_ path: String) throws(Errno) -> FileDescriptor {
        let options: FileDescriptor.OpenOptions = [.create, .exclusive]
        do throws(Errno) {
            return try fileSystem.open(path, .writeOnly, options: options, permissions: Self.filePermissions)
        } catch  where error == .fileExists {
            try fileSystem.removeFile(path)
            return try fileSystem.open(path, .writeOnly, options: options, permissions: Self.filePermissions)
        }
    }

    /// Flushes the directory, making renames and removals in it durable.
    private func syncDirectory() throws(Errno) {
        let descriptor = try fileSystem.open(directory, .readOnly, options: [.directory], permissions: 0)
        defer {
            do throws(Errno) {
                try fileSystem.close(descriptor)
            } catch {
                // A directory descriptor carries no data of its own; what mattered was the sync.
            }
        }
        do throws(Errno) {
            try fileSystem.sync(descriptor)
        } catch  where error == .invalidArgument {
            // Some file systems cannot fsync a directory (fsync(2): EINVAL "fd is bound to a
            // special file ... which does not support synchronization"); there is nothing more
            // to make durable there.
        }
    }

    // MARK: - The directory

    /// Makes sure `directory` is a directory this process can create files in.
    private static func prepare(_ directory: String, fileSystem: any StateFileSystem) throws(StateStoreError) {
        let kind: FileSystem.Kind?
        do throws(Errno) {
            kind = try fileSystem.kind(of: directory)
        } catch {
            throw .cannotExamineDirectory(path: directory, error)
        }
        switch kind {
        case .directory:
            break
        case .regularFile, .other:
            throw .notADirectory(path: directory)
        case nil:
            try createDirectory(directory, fileSystem: fileSystem)
        }
        do throws(Errno) {
            try fileSystem.checkWritableDirectory(directory)
        } catch {
            throw .directoryNotWritable(path: directory, error)
        }
    }

    /// `mkdir -p` with mode 0700 for each directory created.
    private static func createDirectory(_ directory: String, fileSystem: any StateFileSystem) throws(StateStoreError) {
        let parent = parentDirectory(of: directory)
        if let parent {
            let parentKind: FileSystem.Kind?
            do throws(Errno) {
                parentKind = try fileSystem.kind(of: parent)
            } catch {
                throw .cannotExamineDirectory(path: parent, error)
            }
            // A parent that is not a directory makes the mkdir below fail with ENOTDIR, which
            // names the directory we wanted.
            if parentKind == nil { try createDirectory(parent, fileSystem: fileSystem) }
        }
        do throws(Errno) {
            try fileSystem.makeDirectory(directory, permissions: directoryPermissions)
        } catch  where error == .fileExists {
            // Made by someone else meanwhile (systemd, a second start); the caller checks it.
        } catch {
            throw .cannotCreateDirectory(path: directory, error)
        }
    }

    /// `/a/b` for `/a/b/c`; nil when there is no parent to create: for `/x` (the root exists)
    /// and for a single relative component (the working directory exists).
    private static func parentDirectory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let parent = String(path[..<slash])
        if parent.isEmpty { return nil }  // "/x": the parent is "/", which exists.
        return parent
    }
}
