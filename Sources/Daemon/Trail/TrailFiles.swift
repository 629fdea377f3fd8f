import Core
import Synchronization
import SystemSupport

/// The breadcrumb trail's files in the state directory: `trail.log` (one line a point, see
/// ``TrailPoint``) and, once that passed its size, `trail.1.log`. Carries out what
/// ``TrailLog`` decides: appends (a `write` of every line, then one `fsync`), rotations and
/// clears; and reads both files back for exports and `back`.
///
/// The calls block (an `fsync` on an SD card can take tens of milliseconds), so appends run on
/// the trail's own thread (``TrailService``), never on the sampling or GPS thread. Calls are
/// serialized; an append asked for before a clear is dropped, so it cannot bring cleared points
/// back.
public final class TrailFiles: Sendable {
    /// The current file.
    public static let fileName = "trail.log"
    /// The older file.
    public static let olderFileName = "trail.1.log"

    private struct State {
        /// The newest generation a clear was made under: appends of older ones are dropped.
        var clearedGeneration = 0
        /// Where an append's lines are put together: kept, so that an append allocates nothing
        /// once it has grown to a minute's lines.
        var buffer: [UInt8] = []
    }

    /// `trail.log`'s and `trail.1.log`'s paths, made once: an append allocates nothing.
    private let currentPath: String
    private let olderPath: String
    private let fileSystem: any StateFileSystem
    /// The most read of one file, bytes.
    private let readLimit: Int
    private let state = Mutex(State())

    /// The trail's files in `directory` (the state directory, which exists).
    ///
    /// - Parameters:
    ///   - limits: The trail's bounds: a file is read up to what rotation allows and one append
    ///     more.
    public init(directory: String, fileSystem: any StateFileSystem = LinuxStateFileSystem(), limits: TrailLog.Limits = .init()) {
        currentPath = directory + "/" + Self.fileName
        olderPath = directory + "/" + Self.olderFileName
        self.fileSystem = fileSystem
        readLimit = limits.fileBytes + limits.bufferedPoints * 2 * TrailPoint.maximumLineBytes + 4096
        state.withLock { $0.buffer.reserveCapacity(TrailLog.reservedPoints * TrailPoint.maximumLineBytes) }
    }

    /// Bytes in `trail.log` now (0 when there is none): where a new ``TrailLog`` starts.
    public var currentFileBytes: Int {
        (try? fileSystem.contents(ofRegularFile: currentPath, maximumBytes: readLimit, followingLinks: false))?.count ?? 0
    }

    /// Carries out an append: the rotation first when asked, then the lines `lines` writes into
    /// the buffer (the trail's, read where it is kept), and an `fsync`.
    /// - Returns: What was done, and the error that stopped it, if one did.
    public func append(_ append: TrailLog.Append, lines: (inout [UInt8]) -> Void) -> (TrailLog.Written, Errno?) {
        state.withLock { state in
            guard append.generation >= state.clearedGeneration else {
                return (TrailLog.Written(rotated: false, bytes: 0, appended: false), nil)
            }
            var rotated = false
            if append.rotatesFirst {
                do throws(Errno) {
                    try fileSystem.rename(currentPath, to: olderPath)
                    rotated = true
                } catch {
                    return (TrailLog.Written(rotated: false, bytes: 0, appended: false), error)
                }
            }
            state.buffer.removeAll(keepingCapacity: true)
            lines(&state.buffer)
            do throws(Errno) {
                let descriptor = try fileSystem.open(
                    currentPath, .writeOnly, options: [.create, .append, .noFollow],
                    permissions: StateStore.filePermissions)
                defer { try? fileSystem.close(descriptor) }
                try FileDescriptor.writeAll(state.buffer) { buffer throws(Errno) in try fileSystem.write(descriptor, buffer) }
                try fileSystem.sync(descriptor)
            } catch {
                return (TrailLog.Written(rotated: rotated, bytes: 0, appended: false), error)
            }
            return (TrailLog.Written(rotated: rotated, bytes: state.buffer.count, appended: true), nil)
        }
    }

    /// Removes both files (`track clear`); appends of older generations are dropped from now on.
    /// - Returns: The error of a removal that failed.
    public func clear(generation: Int) -> Errno? {
        state.withLock { state in
            state.clearedGeneration = max(state.clearedGeneration, generation)
            for path in [currentPath, olderPath] {
                do throws(Errno) {
                    try fileSystem.removeFile(path)
                } catch where error == .noSuchFileOrDirectory {
                } catch {
                    return error
                }
            }
            return nil
        }
    }

    /// Both files, oldest first, each ending in a newline (a line cut short by a power cut
    /// stands on its own, and is skipped when read).
    public func contents() -> [UInt8] {
        state.withLock { _ in
            var bytes: [UInt8] = []
            // Both files' room at once (address space only until read into): no copy as it grows.
            bytes.reserveCapacity(2 * (readLimit + 1))
            for path in [olderPath, currentPath] {
                guard
                    let contents = try? fileSystem.contents(
                        ofRegularFile: path, maximumBytes: readLimit, followingLinks: false)
                else { continue }
                bytes += contents
                if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            }
            return bytes
        }
    }
}
