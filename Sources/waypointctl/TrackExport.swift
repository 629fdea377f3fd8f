import CommandLineSupport
import ControlProtocol
import GPX
import Geodesy

/// `waypointctl track export`: the daemon's breadcrumb trail as GPX 1.1 on standard output,
/// asked for page by page (``TrackAction/pagePoints`` points each) so that no reply is large.
enum TrackExport {
    /// The most points exported: more than the daemon's trail can hold (two 4 MiB files).
    static let maximumPoints = 500_000

    /// Fetches every page and builds the document: one track, a segment per run of points
    /// without a gap.
    static func document(session: DaemonSession, since: Double?, until: Double?) throws(DaemonFailure) -> GPXDocument {
        var segments: [[GPXPoint]] = []
        var cursor: String?
        var count = 0
        repeat {
            let received = try session.send(.track(.export(since: since, until: until, cursor: cursor)))
            guard case .track(let page) = received.reply else {
                throw .unexpectedReply(request: "track", reply: received.reply.className)
            }
            for point in page.points {
                let gpx = GPXPoint(
                    latitudeDegrees: point.latitude, longitudeDegrees: point.longitude, elevationMeters: point.elevationMeters,
                    time: UTCTime(posixSeconds: point.seconds).iso8601, satellites: point.satellites,
                    horizontalDilution: point.hdop)
                if point.startsSegment || segments.isEmpty { segments.append([]) }
                segments[segments.count - 1].append(gpx)
            }
            count += page.points.count
            guard count <= maximumPoints else {
                throw .input("the trail has more than \(maximumPoints) points; export it in parts with --since and --until", .dataError)
            }
            cursor = page.next
        } while cursor != nil
        return GPXDocument(tracks: segments.isEmpty ? [] : [GPXTrack(name: "waypointd trail", segments: segments)])
    }

    /// Reads `--since`/`--until`: ISO 8601 UTC (`2026-12-02T08:00:00Z`), or a time ago:
    /// `90s`, `30m`, `2h`, `1d`, counted from `now` (POSIX seconds).
    static func parseTime(_ text: String, option: String, now: Double) throws(UsageError) -> Double {
        if let time = UTCTime(iso8601: text) { return time.posixSeconds }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()), amount.isFinite, amount >= 0 {
            return now - amount * unit
        }
        throw UsageError(
            "\(option) '\(text)' is neither a UTC time such as 2026-12-02T08:00:00Z nor a time ago such as 30m or 2h",
            command: "track")
    }
}
