import Geodesy
import Synchronization
import SystemSupport

/// The breadcrumb trail: the fixes ``TrailThinner`` keeps, in `trail.log` in the state
/// directory, bounded, and written so that it neither wears an SD card nor loses more than the
/// last minute.
///
/// Points wait in memory and are appended (`write`, then one `fsync`) at most once every
/// ``Limits/flushSeconds`` (and when ``Limits/bufferedPoints`` wait), and at stop: a power cut
/// or `SIGKILL` loses at most that minute. When `trail.log` passes ``Limits/fileBytes`` it
/// becomes `trail.1.log`, replacing the older one: the trail holds between one and two files'
/// worth, the oldest dropped first (4 MiB a file is about 70 000 points, days of walking). A
/// line cut short by a power cut is skipped when read.
///
/// Exports read the files and the waiting points as one stream of lines, in pages
/// (``page(from:since:until:limit:)``), so that no reply and no read is unbounded.
public final class TrailStore: Sendable {
    /// Bounds, with documented defaults.
    public struct Limits: Sendable, Hashable {
        /// Append the waiting points this often, seconds. Default 60.
        public var flushSeconds = 60.0
        /// Or as soon as this many wait. Default 1000 (about 80 KB).
        public var bufferedPoints = 1000
        /// `trail.log` is set aside as `trail.1.log` past this size, bytes. Default 4 MiB.
        public var fileBytes = 4 << 20

        /// The defaults.
        public init() {}
    }

    /// The current file.
    public static let fileName = "trail.log"
    /// The older file.
    public static let olderFileName = "trail.1.log"

    /// Where a page of an export stands: an offset into the lines of both files and the
    /// waiting points, valid while no rotation happened.
    public struct Cursor: Sendable, Hashable {
        public var rotation: Int
        public var offset: Int

        public init(rotation: Int, offset: Int) {
            self.rotation = rotation
            self.offset = offset
        }
    }

    /// Why a page cannot be read.
    public enum PageError: Error, Sendable, Hashable {
        /// The files rotated since the cursor was made.
        case rotated
    }

    private struct State {
        var thinner: TrailThinner
        var waiting: [TrailPoint] = []
        var lastFlushSeconds: Double?
        var currentBytes = 0
        var rotations = 0
        var syncs = 0
        var sessionStart: Double?
        var latest: Double?
    }

    public let limits: Limits
    private let directory: String
    private let fileSystem: any StateFileSystem
    private let state: Mutex<State>

    /// A trail in `directory` (the state directory, which exists).
    public init(
        directory: String, fileSystem: any StateFileSystem = LinuxStateFileSystem(), limits: Limits = Limits(),
        thinning: TrailThinner.Settings = TrailThinner.Settings()
    ) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.limits = limits
        var initial = State(thinner: TrailThinner(settings: thinning))
        initial.currentBytes = (try? fileSystem.contents(
            ofRegularFile: directory + "/" + Self.fileName, maximumBytes: Self.readLimit(limits), followingLinks: false))?.count ?? 0
        state = Mutex(initial)
    }

    /// The most read of one file, bytes: what rotation allows, and one flush more.
    private static func readLimit(_ limits: Limits) -> Int { limits.fileBytes + limits.bufferedPoints * 128 + 4096 }

    private func path(_ name: String) -> String { directory + "/" + name }

    /// `fsync` calls made so far, for tests of the write rate.
    public var syncCount: Int { state.withLock { $0.syncs } }

    /// The time of the first point kept since this store was made (the daemon started), UTC
    /// POSIX seconds; nil before the first.
    public var sessionStartSeconds: Double? { state.withLock { $0.sessionStart } }

    /// The time of the newest point kept since the daemon started; nil before the first.
    public var latestSeconds: Double? { state.withLock { $0.latest } }

    /// Points waiting in memory.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Takes a fix at `seconds` (monotonic); appends the waiting points when due.
    /// - Returns: The error of a failed append (the points stay waiting, up to the bound).
    @discardableResult
    public func record(_ fix: Fix, at seconds: Double) -> Errno? {
        state.withLock { state in
            if let point = state.thinner.take(fix, at: seconds) {
                state.sessionStart = state.sessionStart ?? point.utcSeconds
                state.latest = point.utcSeconds
                if state.waiting.count >= limits.bufferedPoints * 2 { state.waiting.removeFirst(limits.bufferedPoints) }
                state.waiting.append(point)
            }
            let due = state.lastFlushSeconds.map { seconds - $0 >= limits.flushSeconds } ?? false
            if state.lastFlushSeconds == nil { state.lastFlushSeconds = seconds }
            guard !state.waiting.isEmpty, due || state.waiting.count >= limits.bufferedPoints else { return nil }
            state.lastFlushSeconds = seconds
            return flush(&state)
        }
    }

    /// Appends the waiting points now (at stop).
    @discardableResult
    public func flush() -> Errno? { state.withLock { flush(&$0) } }

    private func flush(_ state: inout State) -> Errno? {
        guard !state.waiting.isEmpty else { return nil }
        let bytes = Array(state.waiting.map(\.line).joined().utf8)
        do throws(Errno) {
            let descriptor = try fileSystem.open(
                path(Self.fileName), .writeOnly, options: [.create, .append, .noFollow], permissions: StateStore.filePermissions)
            defer { try? fileSystem.close(descriptor) }
            try FileDescriptor.writeAll(bytes) { buffer throws(Errno) in try fileSystem.write(descriptor, buffer) }
            try fileSystem.sync(descriptor)
            state.syncs += 1
        } catch {
            return error
        }
        state.waiting.removeAll(keepingCapacity: true)
        state.currentBytes += bytes.count
        if state.currentBytes > limits.fileBytes {
            do throws(Errno) {
                try fileSystem.rename(path(Self.fileName), to: path(Self.olderFileName))
                state.currentBytes = 0
                state.rotations += 1
            } catch {
                return error
            }
        }
        return nil
    }

    /// Forgets the whole trail (`track clear`).
    public func clear() -> Errno? {
        state.withLock { state in
            state.waiting.removeAll()
            state.currentBytes = 0
            state.rotations += 1
            for name in [Self.fileName, Self.olderFileName] {
                do throws(Errno) {
                    try fileSystem.removeFile(path(name))
                } catch where error == .noSuchFileOrDirectory {
                } catch {
                    return error
                }
            }
            return nil
        }
    }

    /// Every line of the trail, oldest first: both files, then the waiting points.
    private func stream(_ state: State) -> [UInt8] {
        var bytes: [UInt8] = []
        for name in [Self.olderFileName, Self.fileName] {
            if let contents = try? fileSystem.contents(
                ofRegularFile: path(name), maximumBytes: Self.readLimit(limits), followingLinks: false)
            {
                bytes += contents
                // A file cut mid-line by a power cut: end the fragment so the next line stands apart.
                if bytes.last != UInt8(ascii: "\n"), !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
            }
        }
        bytes += Array(state.waiting.map(\.line).joined().utf8)
        return bytes
    }

    /// Every point with a time from `since` on, oldest first, from one reading of the files
    /// (at most two of ``Limits/fileBytes`` and a flush): what `back` walks, where paging
    /// would read the files once a page.
    public func points(since: Double) -> [TrailPoint] {
        let bytes = state.withLock { stream($0) }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            TrailPoint(line: Substring(decoding: line, as: UTF8.self)).flatMap { $0.utcSeconds >= since ? $0 : nil }
        }
    }

    /// Up to `limit` points with times in `since...until`, from `cursor` (nil: the start).
    /// - Returns: The points and the cursor of the next page, nil at the end.
    /// - Throws: ``PageError/rotated`` when the files rotated since `cursor` was made.
    public func page(from cursor: Cursor?, since: Double = -.infinity, until: Double = .infinity, limit: Int) throws(PageError)
        -> (points: [TrailPoint], next: Cursor?)
    {
        let (bytes, rotation) = state.withLock { (stream($0), $0.rotations) }
        if let cursor, cursor.rotation != rotation { throw .rotated }
        var offset = min(max(cursor?.offset ?? 0, 0), bytes.count)
        var points: [TrailPoint] = []
        while offset < bytes.count, points.count < limit {
            let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = min(end + 1, bytes.count)
            if let point = TrailPoint(line: Substring(line)), point.utcSeconds >= since, point.utcSeconds <= until {
                points.append(point)
            }
        }
        return (points, offset < bytes.count ? Cursor(rotation: rotation, offset: offset) : nil)
    }
}
