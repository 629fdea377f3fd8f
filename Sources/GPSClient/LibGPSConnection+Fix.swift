internal import CGPS
import Geodesy

extension LibGPSConnection {
    /// Maps libgps's report to a `Fix`: NaN, zero times and unset bits become nil.
    ///
    /// Speed is kept only from a report with the receiver's course (TRACK_SET): for a GGA
    /// sentence, which has no speed, gpsd fills in one computed from the last two positions,
    /// which is noise at walking pace.
    static func fix(from data: gps_data_t) -> Fix {
        let set = data.set
        let raw = data.fix
        let mode: Fix.Mode = switch raw.mode {
        case 2: .twoDimensional
        case 3: .threeDimensional
        default: .noFix
        }
        func known(_ value: Double) -> Double? { value.isFinite ? value : nil }
        var fix = Fix(mode: mode, status: Fix.Status(rawValue: Int(raw.status)) ?? .unknown)
        if set & TIME_SET != 0 && (raw.time.tv_sec != 0 || raw.time.tv_nsec != 0) {
            fix.time = UTCTime(seconds: Int64(raw.time.tv_sec), nanoseconds: Int64(raw.time.tv_nsec))
        }
        if mode != .noFix, set & LATLON_SET != 0 {
            // The checked initializer refuses NaN and out-of-range values from a confused peer.
            fix.coordinate = try? Coordinate(latitudeDegrees: raw.latitude, longitudeDegrees: raw.longitude)
        }
        guard fix.coordinate != nil else {
            fix.mode = .noFix
            return fix
        }
        fix.altitudeHAEMeters = known(raw.altHAE)
        fix.altitudeMSLMeters = known(raw.altMSL)
        fix.horizontalErrorMeters = known(raw.eph)
        fix.trackErrorDegrees = known(raw.epd)
        if set & TRACK_SET != 0 {
            fix.trackDegrees = known(raw.track)
            fix.speedMetersPerSecond = set & SPEED_SET != 0 ? known(raw.speed) : nil
        }
        fix.hdop = known(data.dop.hdop)
        fix.satellitesUsed = data.satellites_used > 0 ? Int(data.satellites_used) : nil
        return fix
    }
}
