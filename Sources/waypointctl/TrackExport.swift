import ClientSupport
import CommandLineSupport
import ControlProtocol
import GPX
import Geodesy

/// `waypointctl track export`: the daemon's breadcrumb trail as GPX 1.1 on standard output,
/// asked for page by page (``TrackAction/pagePoints`` points each) so that no reply is large.
enum TrackExport {
    /// Fetches every page and builds the document.
    static func document(session: DaemonSession, since: Double?, until: Double?) throws(DaemonFailure) -> GPXDocument {
        var trail = TrailDocument()
        var cursor: String?
        repeat {
            let received = try session.send(.track(.export(since: since, until: until, cursor: cursor)))
            guard case .track(let page) = received.reply else {
                throw .unexpectedReply(request: "track", reply: received.reply.messageClass.rawValue)
            }
            guard trail.add(page) else {
                throw .input(
                    "the trail has more than \(TrailDocument.maximumPoints) points; export it in parts with --since and --until",
                    .dataError)
            }
            cursor = page.next
        } while cursor != nil
        return trail.document
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
