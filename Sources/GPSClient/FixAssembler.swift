import Geodesy
import SystemSupport

/// Turns gpsd's stream of position reports into one report per fix epoch, and watches for
/// silence. Pure: the caller passes the time of every event (as a duration since any fixed
/// origin) and performs the events returned.
///
/// gpsd sends a report for each NMEA sentence, so one epoch arrives two or three times: the GGA
/// sentence's report carries the position but no course, and a speed gpsd computed from the
/// last two positions (noisy: 9 m/s for a walker); the RMC sentence's report carries the
/// receiver's own speed and course. The assembler merges the reports of an epoch and passes
/// the epoch on once it has the receiver's course, once the next epoch starts, or after
/// `epochHold`, whichever comes first.
struct FixAssembler {
    let settings: GPSClientSettings

    /// The epoch being assembled, not yet passed on.
    private var held: (fix: Fix, since: Duration)?
    /// The time of the last epoch passed on, to drop later reports of it.
    private var lastEpochTime: UTCTime?
    /// The position of the last fix without a time that was passed on.
    private var lastTimelessCoordinate: Coordinate?
    /// Whether the last report passed on was a lost fix, so a loss is reported once.
    private var lastWasNoFix = false
    /// When the last report of any kind arrived.
    private var lastReportAt: Duration
    /// Whether the current silence has been reported.
    private var silenceReported = false

    /// An assembler whose silence watchdog starts at `now`.
    init(settings: GPSClientSettings, now: Duration) {
        self.settings = settings
        lastReportAt = now
    }

    /// One position report from gpsd.
    /// - Parameters:
    ///   - report: the report, with `speedMetersPerSecond` and `trackDegrees` only when the
    ///     sentence carried the receiver's course (see `hasCourse`).
    ///   - hasCourse: whether the report came from a sentence with the receiver's course.
    ///   - now: when it arrived.
    mutating func receive(_ report: Fix, hasCourse: Bool, now: Duration) -> [GPSEvent] {
        lastReportAt = now
        silenceReported = false
        var events = flushIfStale(now: now)
        guard report.hasPosition else {
            events += flush()
            if !lastWasNoFix {
                lastWasNoFix = true
                lastTimelessCoordinate = nil
                events.append(.fix(report))
            }
            return events
        }
        lastWasNoFix = false
        guard let time = report.time else {
            // A fix before the receiver knows the date has no epoch to merge by.
            events += flush()
            if report.coordinate != lastTimelessCoordinate {
                lastTimelessCoordinate = report.coordinate
                events.append(.fix(report))
            }
            return events
        }
        lastTimelessCoordinate = nil
        if time == lastEpochTime { return events }
        if let held, held.fix.time == time {
            self.held = (Self.merge(held.fix, with: report), held.since)
        } else {
            events += flush()
            held = (report, now)
        }
        if hasCourse { events += flush() }
        return events
    }

    /// Time passing: passes on an epoch held too long and reports a silence.
    mutating func tick(now: Duration) -> [GPSEvent] {
        var events = flushIfStale(now: now)
        let silence = now - lastReportAt
        if !silenceReported && silence >= settings.noDataTimeout {
            silenceReported = true
            events.append(.noData(seconds: silence.seconds))
        }
        return events
    }

    /// The connection ended: whatever was assembled is still a valid fix.
    mutating func connectionLost() -> [GPSEvent] { flush() }

    /// When `tick` next has something to do, so the caller can sleep until then.
    func nextDeadline() -> Duration? {
        let epochDeadline = held.map { $0.since + settings.epochHold }
        let silenceDeadline = silenceReported ? nil : lastReportAt + settings.noDataTimeout
        return [epochDeadline, silenceDeadline].compactMap { $0 }.min()
    }

    private mutating func flushIfStale(now: Duration) -> [GPSEvent] {
        guard let held, now - held.since >= settings.epochHold else { return [] }
        return flush()
    }

    private mutating func flush() -> [GPSEvent] {
        guard let held else { return [] }
        self.held = nil
        lastEpochTime = held.fix.time
        return [.fix(held.fix)]
    }

    /// A later report of the same epoch completes an earlier one: what it knows wins.
    private static func merge(_ earlier: Fix, with later: Fix) -> Fix {
        var merged = later
        merged.coordinate = later.coordinate ?? earlier.coordinate
        merged.altitudeHAEMeters = later.altitudeHAEMeters ?? earlier.altitudeHAEMeters
        merged.altitudeMSLMeters = later.altitudeMSLMeters ?? earlier.altitudeMSLMeters
        merged.speedMetersPerSecond = later.speedMetersPerSecond ?? earlier.speedMetersPerSecond
        merged.trackDegrees = later.trackDegrees ?? earlier.trackDegrees
        merged.horizontalErrorMeters = later.horizontalErrorMeters ?? earlier.horizontalErrorMeters
        merged.trackErrorDegrees = later.trackErrorDegrees ?? earlier.trackErrorDegrees
        merged.hdop = later.hdop ?? earlier.hdop
        merged.satellitesUsed = later.satellitesUsed ?? earlier.satellitesUsed
        return merged
    }
}
