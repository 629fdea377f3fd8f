import Geodesy
import Guidance

/// Which fixes the breadcrumb trail keeps: pure. A walker's receiver gives a fix a second; the
/// trail needs a point every few metres, and one now and then while standing, not every fix.
///
/// A fix with a position, a time and an eph the navigator would guide with is kept when it is
/// ``Settings/spacingMeters`` from the last kept point, or ``Settings/intervalSeconds`` after
/// it. A segment starts at the first point kept after a fix without a position, or after no
/// usable fix for ``Settings/gapSeconds``.
public struct TrailThinner: Sendable {
    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// Keep a fix this far from the last kept point, metres. Default 5.
        public var spacingMeters = 5.0
        /// Keep a fix this long after the last kept point however near, seconds. Default 30.
        public var intervalSeconds = 30.0
        /// No usable fix for this long starts a new segment, seconds. Default 10.
        public var gapSeconds = 10.0
        /// A fix with a larger eph is not kept, metres. Default 50, the navigator's limit.
        public var maximumErrorMeters = 50.0

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    private var last: (coordinate: Coordinate, seconds: Double)?
    private var lastUsableSeconds = -Double.infinity
    private var lost = true

    /// A thinner that has kept nothing yet.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The point to keep for `fix`, received at `seconds` (monotonic), or nil.
    public mutating func take(_ fix: Fix, at seconds: Double) -> TrailPoint? {
        guard fix.hasPosition, let here = fix.coordinate, let time = fix.time,
            (fix.horizontalErrorMeters ?? 0) <= settings.maximumErrorMeters
        else {
            if !fix.hasPosition { lost = true }
            return nil
        }
        if seconds - lastUsableSeconds > settings.gapSeconds { lost = true }
        lastUsableSeconds = seconds
        if !lost, let last {
            let moved = Geodesic.wgs84.inverse(from: last.coordinate, to: here).distanceMeters
            guard moved >= settings.spacingMeters || seconds - last.seconds >= settings.intervalSeconds else { return nil }
        }
        let point = TrailPoint(
            utcSeconds: time.posixSeconds, coordinate: here,
            elevationMeters: fix.altitudeMSLMeters, horizontalErrorMeters: fix.horizontalErrorMeters, hdop: fix.hdop,
            satellites: fix.satellitesUsed, startsSegment: lost)
        lost = false
        last = (here, seconds)
        return point
    }
}
