import Foundation
import Geodesy
import Testing

@testable import GPSClient

/// Checks a client's fix reports against a `.chk` file's expectations.
func expectReports(_ events: [GPSEvent], match expected: ExpectedEpochs, log: String) {
    let fixes = events.compactMap { event -> Fix? in
        if case .fix(let fix) = event { return fix }
        return nil
    }
    let timed = fixes.filter { $0.hasPosition && $0.time != nil }
    let times = timed.map { $0.time!.iso8601 }
    #expect(Set(times).count == times.count, "\(log): duplicate epochs \(times)")
    #expect(timed.count == expected.epochs.count, "\(log): \(timed.count) epochs, expected \(expected.epochs.count)")
    let rollover = rolloverShift(timed.first?.time, expected.epochs.first?.time)
    for (fix, epoch) in zip(timed, expected.epochs) {
        #expect(shifted(epoch.time, by: rollover) == fix.time!.iso8601, "\(log): \(epoch)")
        #expect(abs(fix.coordinate!.latitudeDegrees - epoch.latitude) < 1e-9, "\(log) \(epoch)")
        #expect(abs(fix.coordinate!.longitudeDegrees - epoch.longitude) < 1e-9, "\(log) \(epoch)")
    }
    let timeless = fixes.filter { $0.hasPosition && $0.time == nil }.map {
        [$0.coordinate!.latitudeDegrees, $0.coordinate!.longitudeDegrees]
    }
    #expect(timeless.count == expected.timelessPositions.count, "\(log): fixes without time")
    for (position, expectedPosition) in zip(timeless, expected.timelessPositions) {
        #expect(abs(position[0] - expectedPosition[0]) < 1e-9 && abs(position[1] - expectedPosition[1]) < 1e-9)
    }
    #expect(fixes.filter { !$0.hasPosition }.count == expected.losses, "\(log): reports of a lost fix")
    for fix in fixes where !fix.hasPosition {
        #expect(fix.coordinate == nil && fix.speedMetersPerSecond == nil && fix.trackDegrees == nil)
    }
}

/// 1024 GPS weeks in seconds: receivers count weeks in 10 bits, and gpsd resolves the
/// ambiguity of old logs from its build date and, for SiRF binary logs, from the clock, so a
/// log replayed live can land a whole number of rollovers away from the expected output.
let gpsWeekRolloverSeconds: Int64 = 1024 * 7 * 86_400

/// The whole number of rollovers between the first reported and the first expected epoch.
private func rolloverShift(_ reported: UTCTime?, _ expected: String?) -> Int64 {
    guard let reported, let expected, let expectedSeconds = isoSeconds(expected) else { return 0 }
    let difference = reported.seconds - expectedSeconds
    guard difference % gpsWeekRolloverSeconds == 0 else { return 0 }
    return difference / gpsWeekRolloverSeconds
}

/// An expected ISO time moved by `rollovers` × 1024 weeks, printed as the client prints times.
private func shifted(_ time: String, by rollovers: Int64) -> String {
    guard rollovers != 0, let seconds = isoSeconds(time) else { return time }
    let milliseconds = Int64(time.split(separator: ".").last?.prefix(3) ?? "0") ?? 0
    return UTCTime(seconds: seconds + rollovers * gpsWeekRolloverSeconds, nanoseconds: milliseconds * 1_000_000).iso8601
}

/// Whole seconds of `2026-11-22T09:53:05.802Z`, read with Foundation (independent of UTCTime).
private func isoSeconds(_ time: String) -> Int64? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: time).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
}
