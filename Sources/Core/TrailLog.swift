import Geodesy

/// The breadcrumb trail as the core holds it (pure): which fixes to keep (``TrailThinner``), the
/// points waiting in memory for the next append, how large `trail.log` has grown and when it is
/// set aside. ``TrailFiles`` carries out the appends it asks for and reports back.
///
/// Points wait in memory and are appended (a `write`, then one `fsync`) at most once every
/// ``Limits/flushSeconds`` (and when ``Limits/bufferedPoints`` wait), and at stop: a power cut
/// or `SIGKILL` loses at most that minute. Once `trail.log` has passed ``Limits/fileBytes`` the
/// next append first sets it aside as `trail.1.log`, replacing the older one: the trail holds
/// between one and two files' worth, the oldest dropped first (4 MiB a file is about 70 000
/// points, days of walking). While appends fail (a full card), at most twice
/// ``Limits/bufferedPoints`` wait, the oldest dropped first.
///
/// Exports and `back` read the files and the waiting points as one stream of lines, in pages
/// (``page(stored:from:since:until:limit:)``), so that no reply is unbounded.
public struct TrailLog: Sendable {
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

    /// An append for ``TrailFiles`` to carry out: set the current file aside first when asked,
    /// then append the lines of the oldest `count` waiting points (``appendLines(_:to:)``, read
    /// from the core as they are written, so no array is shared or copied) and `fsync`.
    public struct Append: Sendable, Equatable {
        /// How many of the waiting points, the oldest.
        public var count: Int
        /// The trail's generation when the append was asked for: an append asked for before a
        /// `track clear` is dropped.
        public var generation: Int
        /// Whether `trail.log` is set aside as `trail.1.log` before the points are appended.
        public var rotatesFirst: Bool
        /// When guidance started, written first as a `G` line: not yet in the file.
        public var guidanceStart: Double? = nil
    }

    /// What an append did.
    public struct Written: Sendable, Equatable {
        /// Whether the current file was set aside first (asked for, and done).
        public var rotated: Bool
        /// Bytes appended; 0 when the append failed.
        public var bytes: Int
        /// Whether the points reached the file (written and synced).
        public var appended: Bool

        /// An outcome from its parts.
        public init(rotated: Bool, bytes: Int, appended: Bool) {
            self.rotated = rotated
            self.bytes = bytes
            self.appended = appended
        }
    }

    /// Where a page of an export stands: a byte offset into the stream of lines, valid while
    /// the trail's generation is the same.
    public struct Cursor: Sendable, Hashable {
        public var generation: Int
        public var offset: Int

        public init(generation: Int, offset: Int) {
            self.generation = generation
            self.offset = offset
        }

        /// The cursor as the protocol carries it: `generation:offset`.
        public var text: String { "\(generation):\(offset)" }

        /// A cursor read back from its text; nil for text this daemon did not write.
        public init?(text: String) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let generation = Int(parts[0]), let offset = Int(parts[1]) else { return nil }
            self.init(generation: generation, offset: offset)
        }
    }

    /// A page of the trail.
    public struct Page: Sendable, Equatable {
        /// The points, oldest first.
        public var points: [TrailPoint]
        /// Where the next page starts; nil at the end.
        public var next: Cursor?
    }

    /// The bounds.
    public let limits: Limits
    private var thinner: TrailThinner
    /// The points kept and not yet appended, oldest first.
    public private(set) var waiting: [TrailPoint] = []
    private var lastFlushSeconds: Double?
    /// Bytes in `trail.log`, as appends have reported them.
    public private(set) var currentFileBytes: Int
    /// Counts rotations and clears: a cursor from another generation is stale.
    public private(set) var generation = 0
    /// The time of the first point kept since the daemon started, UTC POSIX seconds.
    public private(set) var sessionStartSeconds: Double?
    /// The time of the newest point kept since the daemon started.
    public private(set) var latestSeconds: Double?
    /// When guidance last started (`go`, `route load`), UTC POSIX seconds, as this daemon set
    /// it; written into `trail.log` as a `G` line with the next append, so that `back` finds
    /// it after a restart (``latestGuidanceStart(stored:)``).
    public private(set) var guidanceStartSeconds: Double?
    private var guidanceStartUnwritten = false
    /// Whether an append is under way (it carries how many of ``waiting`` it writes).
    private var isAppending = false
    /// Appends done so far, each with one `fsync`: for tests of the write rate.
    public private(set) var appendCount = 0

    /// A trail that has kept nothing yet.
    ///
    /// - Parameters:
    ///   - currentFileBytes: What `trail.log` holds already.
    ///   - limits: The bounds.
    ///   - thinning: Which fixes are kept.
    public init(currentFileBytes: Int = 0, limits: Limits = Limits(), thinning: TrailThinner.Settings = TrailThinner.Settings()) {
        self.limits = limits
        self.currentFileBytes = currentFileBytes
        thinner = TrailThinner(settings: thinning)
        // Room for a minute of fixes and more: appending a point never allocates in steady state.
        waiting.reserveCapacity(Self.reservedPoints)
    }

    /// Points room is kept for: two minutes at one fix a second.
    package static let reservedPoints = 128

    /// Takes a fix at `seconds` (monotonic).
    /// - Returns: The append to carry out now, when one is due and none is under way.
    public mutating func take(_ fix: Fix, at seconds: Double) -> Append? {
        if let point = thinner.take(fix, at: seconds) {
            sessionStartSeconds = sessionStartSeconds ?? point.utcSeconds
            latestSeconds = point.utcSeconds
            if waiting.count >= limits.bufferedPoints * 2, !isAppending { waiting.removeFirst(limits.bufferedPoints) }
            waiting.append(point)
        }
        if lastFlushSeconds == nil { lastFlushSeconds = seconds }
        let due = lastFlushSeconds.map { seconds - $0 >= limits.flushSeconds } ?? false
        guard due || waiting.count >= limits.bufferedPoints else { return nil }
        return flush(at: seconds)
    }

    /// The append of every waiting point, when there are any and none is under way (at stop,
    /// or when due).
    public mutating func flush(at seconds: Double? = nil) -> Append? {
        guard !isAppending, !waiting.isEmpty || guidanceStartUnwritten else { return nil }
        if let seconds { lastFlushSeconds = seconds }
        isAppending = true
        return Append(
            count: waiting.count, generation: generation, rotatesFirst: currentFileBytes > limits.fileBytes,
            guidanceStart: guidanceStartUnwritten ? guidanceStartSeconds : nil)
    }

    /// Guidance started at `seconds` (UTC POSIX): `back` walks the trail from here on, across
    /// restarts once the next append has written it.
    public mutating func guidanceStarted(atUTC seconds: Double) {
        guidanceStartSeconds = seconds
        guidanceStartUnwritten = true
    }

    /// When guidance last started: this daemon's own mark, or the newest `G` line of the files
    /// (a mark from before a restart); nil if neither has one.
    public func latestGuidanceStart(stored: [UInt8]) -> Double? {
        var latest = guidanceStartSeconds
        forEachLine(stored: stored, from: 0) { line, _ in
            guard line.first == UInt8(ascii: "G") else { return true }
            let fields = line.split(separator: UInt8(ascii: " "))
            if fields.count == 2, let seconds = Double(String(decoding: fields[1], as: UTF8.self)), seconds.isFinite {
                latest = max(latest ?? seconds, seconds)
            }
            return true
        }
        return latest
    }

    /// What came of an append: the points written leave memory; after a failure they wait for
    /// the next one.
    public mutating func written(_ append: Append, _ outcome: Written) {
        guard append.generation == generation else { return }
        isAppending = false
        if outcome.rotated {
            currentFileBytes = 0
            generation += 1
        }
        guard outcome.appended else { return }
        appendCount += 1
        currentFileBytes += outcome.bytes
        waiting.removeFirst(min(append.count, waiting.count))
        if let start = append.guidanceStart, start == guidanceStartSeconds { guidanceStartUnwritten = false }
    }

    /// The lines of an append's points, appended to `bytes`: nothing allocates once `bytes` has
    /// room for them.
    public func appendLines(_ append: Append, to bytes: inout [UInt8]) {
        guard append.generation == generation else { return }
        if let start = append.guidanceStart {
            bytes.append(UInt8(ascii: "G"))
            bytes.append(UInt8(ascii: " "))
            DecimalFormat.appendFixed(start, fractionDigits: 3, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        for point in waiting.prefix(append.count) { point.appendLine(to: &bytes) }
    }

    /// Forgets the whole trail (`track clear`).
    /// - Returns: The new generation: the files are removed under it.
    public mutating func clear() -> Int {
        waiting.removeAll(keepingCapacity: true)
        isAppending = false
        currentFileBytes = 0
        generation += 1
        return generation
    }

    // MARK: - Reading

    /// Calls `body` with each line of the stream (the stored files' bytes, then the waiting
    /// points' lines), from byte `offset` on, and the offset after it, until `body` returns
    /// false. Nothing is copied: an export of a large trail holds the files once, not twice.
    private func forEachLine(stored: [UInt8], from offset: Int, _ body: (ArraySlice<UInt8>, Int) -> Bool) {
        let newline = UInt8(ascii: "\n")
        // A file cut mid-line by a power cut: its fragment ends where the next line begins.
        let storedEnd = stored.count + (stored.last.map { $0 == newline ? 0 : 1 } ?? 0)
        var position = max(offset, 0)
        while position < stored.count {
            let end = stored[position...].firstIndex(of: newline) ?? stored.count
            let next = min(end + 1, storedEnd)
            guard body(stored[position..<end], next) else { return }
            position = next
        }
        var lineStart = storedEnd
        var line: [UInt8] = []
        for point in waiting {
            line.removeAll(keepingCapacity: true)
            point.appendLine(to: &line)
            let next = lineStart + line.count
            if lineStart >= position { guard body(line[..<(line.count - 1)], next) else { return } }
            lineStart = next
        }
    }

    /// Every point with a time from `since` on, oldest first: what `back` walks.
    public func points(stored: [UInt8], since: Double) -> [TrailPoint] {
        var points: [TrailPoint] = []
        forEachLine(stored: stored, from: 0) { line, _ in
            if let point = TrailPoint(line: Substring(decoding: line, as: UTF8.self)), point.utcSeconds >= since {
                points.append(point)
            }
            return true
        }
        return points
    }

    /// Why a page cannot be read.
    public enum PageError: Error, Sendable, Hashable {
        /// The files rotated, or the trail was cleared, since the cursor was made.
        case rotated
    }

    /// Up to `limit` points with times in `since...until`, from `cursor` (nil: the start).
    /// - Parameter stored: The files' bytes, read just now.
    /// - Returns: The points and the cursor of the next page, nil at the end.
    /// - Throws: ``PageError/rotated`` when the cursor is from another generation.
    public func page(
        stored: [UInt8], from cursor: Cursor?, since: Double = -.infinity, until: Double = .infinity, limit: Int
    ) throws(PageError) -> Page {
        if let cursor, cursor.generation != generation { throw .rotated }
        var points: [TrailPoint] = []
        var next: Cursor?
        forEachLine(stored: stored, from: cursor?.offset ?? 0) { line, after in
            guard points.count < limit else {
                // A line beyond the page: the next one starts here.
                next = Cursor(generation: generation, offset: after - line.count - 1)
                return false
            }
            if let point = TrailPoint(line: Substring(decoding: line, as: UTF8.self)), point.utcSeconds >= since,
                point.utcSeconds <= until
            {
                points.append(point)
            }
            return true
        }
        return Page(points: points, next: next)
    }
}
