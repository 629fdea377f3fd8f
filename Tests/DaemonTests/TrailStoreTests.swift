import Core
import Daemon
import Foundation
import Geodesy
import SystemSupport
import Testing

/// The breadcrumb trail (issue 19): thinning, the file format, the bounds and the write rate, on
/// a real temporary directory, with the core's ``TrailLog`` deciding and ``TrailFiles`` writing
/// as the daemon runs them (``TrailHarness``). The walks are simulated (a fix a second along a
/// line).
@Suite("Breadcrumb trail", .timeLimit(.minutes(5)))
struct TrailStoreTests {
    static let start = Coordinate(uncheckedLatitudeDegrees: 48.8556, longitudeDegrees: 2.2986)
    static let epoch: Int64 = 1_782_950_400

    /// A fix `meters` north of the start at second `second`.
    static func fix(north meters: Double, second: Int, eph: Double = 4) -> Fix {
        var fix = Fix(
            mode: .threeDimensional, time: UTCTime(seconds: epoch + Int64(second)),
            coordinate: Coordinate(
                uncheckedLatitudeDegrees: start.latitudeDegrees + meters / 111_200, longitudeDegrees: start.longitudeDegrees))
        fix.horizontalErrorMeters = eph
        fix.altitudeMSLMeters = 35
        fix.hdop = 1.1
        fix.satellitesUsed = 9
        return fix
    }

    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trail-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    static func allPoints(_ store: TrailHarness) throws -> [TrailPoint] {
        var points: [TrailPoint] = []
        var cursor: TrailLog.Cursor?
        repeat {
            let page = try store.page(from: cursor, limit: 1000)
            points += page.points
            cursor = page.next
        } while cursor != nil
        return points
    }

    @Test("a point every 5 m walked and every 30 s standing; a lost fix or a 10 s gap starts a segment")
    func thinning() {
        var thinner = TrailThinner()
        var kept: [(Int, TrailPoint)] = []
        // 60 s walking at 1.25 m/s, 60 s standing, a lost fix, 20 s walking, a 15 s gap, 10 s walking.
        var timeline: [(second: Int, fix: Fix)] = []
        for second in 0..<60 { timeline.append((second, Self.fix(north: Double(second) * 1.25, second: second))) }
        for second in 60..<120 { timeline.append((second, Self.fix(north: 75, second: second))) }
        timeline.append((120, Fix(mode: .noFix)))
        for second in 121..<141 { timeline.append((second, Self.fix(north: 75 + Double(second - 120) * 1.25, second: second))) }
        for second in 156..<166 { timeline.append((second, Self.fix(north: 100 + Double(second - 155) * 1.25, second: second))) }
        for (second, fix) in timeline {
            if let point = thinner.take(fix, at: Double(second)) { kept.append((second, point)) }
        }
        let walking = kept.filter { $0.0 < 60 }
        #expect(walking.count == 15, "one point every 4 s at 1.25 m/s: \(walking.map(\.0))")
        // Second 60 is 5 m past the point kept at 56; then, standing, every 30 s.
        #expect(kept.filter { $0.0 >= 60 && $0.0 < 120 }.map(\.0) == [60, 90], "standing: every 30 s")
        #expect(kept.filter(\.1.startsSegment).map(\.0) == [0, 121, 156])
        #expect(kept.first?.1.utcSeconds == Double(Self.epoch))
        // An imprecise fix is not kept.
        #expect(thinner.take(Self.fix(north: 500, second: 200, eph: 80), at: 200) == nil)
    }

    @Test("the line format round-trips; a line cut short by a power cut, or garbage, is skipped")
    func lines() {
        let point = TrailPoint(
            utcSeconds: 1_782_950_400.5, coordinate: Self.start, elevationMeters: 35.25, horizontalErrorMeters: 4,
            hdop: nil, satellites: 9, startsSegment: true)
        #expect(point.line == "S 1782950400.500 48.8556000 2.2986000 35.3 4.0 - 9\n")
        #expect(TrailPoint(line: point.line.dropLast()) == TrailPoint(
            utcSeconds: 1_782_950_400.5, coordinate: Self.start, elevationMeters: 35.3, horizontalErrorMeters: 4, satellites: 9,
            startsSegment: true))
        for broken in ["S 1782950400.500 48.85", "", "P nan 1 2 - - - -", "X 1 2 3 - - - -", "P 1 91 2 - - - -", "P 1 2 3 - - -"] {
            #expect(TrailPoint(line: Substring(broken)) == nil, "\(broken)")
        }
    }

    @Test("8 hours of walking: at most one fsync a minute, under the size bound, nothing lost but the minute not yet written")
    func eightHours() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = TrailHarness(directory: directory)
        let seconds = 8 * 3600
        for second in 0..<seconds {
            // Up and down a 2 km street at 1.4 m/s.
            let along = Double(second) * 1.4
            let north = along.truncatingRemainder(dividingBy: 4000)
            store.record(Self.fix(north: north < 2000 ? north : 4000 - north, second: second), at: Double(second))
        }
        #expect(store.syncCount <= seconds / 60, "\(store.syncCount) fsyncs in \(seconds / 60) minutes")
        #expect(store.syncCount >= seconds / 60 - 1)
        let current = try FileManager.default.attributesOfItem(atPath: directory + "/trail.log")[.size] as? Int ?? 0
        let older = (try? FileManager.default.attributesOfItem(atPath: directory + "/trail.1.log")[.size] as? Int) ?? 0
        #expect(current + older <= 2 * store.limits.fileBytes, "\(current) + \(older) bytes")
        // What a SIGKILL now would lose: the points waiting, all from the last minute.
        let written = try TrailHarness(directory: directory).page(from: nil, limit: 100_000).points
        let lastWritten = try #require(written.last).utcSeconds
        #expect(Double(Self.epoch + Int64(seconds)) - lastWritten <= 61, "the file ends \(Double(Self.epoch + Int64(seconds)) - lastWritten) s before the last fix")
        #expect(written.count + store.waitingCount == (try Self.allPoints(store)).count)
        print("trail: 8 h walking, \(written.count) points written, \(current + older) bytes, \(store.syncCount) fsyncs")
    }

    @Test("far past the size bound (300 000 fixes, 64 KiB files): two files at most, the oldest dropped, pages span both")
    func bounded() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var limits = TrailLog.Limits()
        limits.fileBytes = 65_536
        var thinning = TrailThinner.Settings()
        thinning.spacingMeters = 0
        let store = TrailHarness(directory: directory, limits: limits, thinning: thinning)
        for second in 0..<300_000 { store.record(Self.fix(north: Double(second % 1000), second: second), at: Double(second)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["trail.1.log", "trail.log"])
        let total = try names.map { try FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as? Int ?? 0 }.reduce(0, +)
        #expect(total <= 2 * 65_536 + 1000 * 60, "\(total) bytes")
        let points = try Self.allPoints(store)
        #expect(points.last?.utcSeconds == Double(Self.epoch + 299_999))
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.utcSeconds < $1.utcSeconds }, "oldest first, in order")
        // A cursor from before a rotation is refused, not misread.
        let first = try store.page(from: nil, limit: 10)
        for second in 300_000..<302_000 { store.record(Self.fix(north: 1, second: second), at: Double(second)) }
        #expect(throws: TrailLog.PageError.rotated) { try store.page(from: first.next, limit: 10) }
    }

    @Test("appends that keep failing (a full card, or no trail files at all) keep at most twice a flush's points waiting, the newest")
    func boundedWhileFailing() {
        var thinning = TrailThinner.Settings()
        thinning.spacingMeters = 0
        var log = TrailLog(thinning: thinning)
        var appends = 0
        for second in 0..<30_000 {
            if let append = log.take(Self.fix(north: Double(second % 1000), second: second), at: Double(second)) {
                appends += 1
                log.written(append, TrailLog.Written(rotated: false, bytes: 0, appended: false))
            }
        }
        #expect(appends > 20, "an append asked for every minute or 1000 points: \(appends)")
        #expect(log.waiting.count <= 2 * log.limits.bufferedPoints, "\(log.waiting.count) waiting")
        #expect(log.waiting.last?.utcSeconds == Double(Self.epoch + 29_999), "the newest point is kept")
    }

    @Test("since and until select by the fixes' time; clear forgets everything")
    func selectAndClear() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = TrailHarness(directory: directory)
        for second in 0..<600 { store.record(Self.fix(north: Double(second) * 1.4, second: second), at: Double(second)) }
        let middle = try store.page(from: nil, since: Double(Self.epoch + 100), until: Double(Self.epoch + 200), limit: 1000).points
        #expect(middle.count == 26 && middle.allSatisfy { $0.utcSeconds >= Double(Self.epoch + 100) && $0.utcSeconds <= Double(Self.epoch + 200) }, "\(middle.count)")
        #expect(store.sessionStartSeconds == Double(Self.epoch))
        // back's one reading gives what the pages give.
        let pages = try store.page(from: nil, since: Double(Self.epoch + 100), limit: 100_000).points
        #expect(store.points(since: Double(Self.epoch + 100)) == pages && pages.count > 100)
        #expect(store.clear() == nil)
        #expect(try Self.allPoints(store).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}

/// The trail as the daemon runs it, but synchronously: the core's ``TrailLog`` decides, and
/// ``TrailFiles`` carries out each append at once and reports back.
final class TrailHarness {
    private(set) var log: TrailLog
    let files: TrailFiles

    init(directory: String, limits: TrailLog.Limits = .init(), thinning: TrailThinner.Settings = .init()) {
        files = TrailFiles(directory: directory, limits: limits)
        log = TrailLog(currentFileBytes: files.currentFileBytes, limits: limits, thinning: thinning)
    }

    var limits: TrailLog.Limits { log.limits }
    /// Appends so far, one `fsync` each.
    var syncCount: Int { log.appendCount }
    var waitingCount: Int { log.waiting.count }
    var sessionStartSeconds: Double? { log.sessionStartSeconds }

    func record(_ fix: Fix, at seconds: Double) {
        if let append = log.take(fix, at: seconds) { perform(append) }
    }

    func flush() {
        if let append = log.flush() { perform(append) }
    }

    private func perform(_ append: TrailLog.Append) {
        let (written, _) = files.append(append) { log.appendLines(append, to: &$0) }
        log.written(append, written)
    }

    func page(from cursor: TrailLog.Cursor?, since: Double = -.infinity, until: Double = .infinity, limit: Int) throws(TrailLog.PageError)
        -> TrailLog.Page
    {
        try log.page(stored: files.contents(), from: cursor, since: since, until: until, limit: limit)
    }

    func points(since: Double) -> [TrailPoint] { log.points(stored: files.contents(), since: since) }

    func clear() -> Errno? { files.clear(generation: log.clear()) }
}
