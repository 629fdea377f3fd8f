import ControlProtocol
import GPX
import Geodesy

/// The daemon's breadcrumb trail as a GPX document, built from the `track export` pages as
/// they come (``TrackAction/pagePoints`` points each): one track, a segment per run of points
/// without a gap. Shared by `waypointctl track export` and the companion's download.
public struct TrailDocument {
    /// The most points taken: more than the daemon's trail can hold (two 4 MiB files).
    public static let maximumPoints = 500_000

    private var segments: [[GPXPoint]] = []
    private var count = 0

    /// An empty trail.
    public init() {}

    /// Adds a page's points.
    /// - Returns: false, adding nothing, when the trail would pass ``maximumPoints``.
    public mutating func add(_ page: TrackReport) -> Bool {
        guard count + page.points.count <= Self.maximumPoints else { return false }
        for point in page.points {
            let gpx = GPXPoint(
                latitudeDegrees: point.latitude, longitudeDegrees: point.longitude, elevationMeters: point.elevationMeters,
                time: UTCTime(posixSeconds: point.seconds).iso8601, satellites: point.satellites,
                horizontalDilution: point.hdop)
            if point.startsSegment || segments.isEmpty { segments.append([]) }
            segments[segments.count - 1].append(gpx)
        }
        count += page.points.count
        return true
    }

    /// The document so far.
    public var document: GPXDocument {
        GPXDocument(tracks: segments.isEmpty ? [] : [GPXTrack(name: "waypointd trail", segments: segments)])
    }
}
