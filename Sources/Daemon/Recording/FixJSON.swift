import ControlProtocol
import Geodesy
import TextFormats

/// A fix as one JSON object, the form `waypointd gps` prints and recordings store:
/// `{"time":"2026-05-01T12:00:00.500Z","mode":3,"lat":…,"lon":…,"altHAE":…,"altMSL":…,
/// "speed":…,"track":…,"eph":…,"epd":…}`, with `null` for what is unknown. Field names and their
/// order follow gpsd's TPV so that tools that read gpsd JSON read these too; numbers are written
/// as every JSON of ours is (``JSONWriter``).
public enum FixJSON {
    /// The JSON text of `fix`, on one line.
    public static func encode(_ fix: Fix) -> String { JSONWriter.line(members(fix)) }

    /// The fix's members, in TPV order: for a line of its own or inside a recording's.
    static func members(_ fix: Fix) -> [(String, JSONWriter.Ordered)] {
        [
            ("time", .string(fix.time?.iso8601)),
            ("mode", .number(Double(fix.mode.rawValue))),
            ("lat", .number(fix.coordinate?.latitudeDegrees)),
            ("lon", .number(fix.coordinate?.longitudeDegrees)),
            ("altHAE", .number(fix.altitudeHAEMeters)),
            ("altMSL", .number(fix.altitudeMSLMeters)),
            ("speed", .number(fix.speedMetersPerSecond)),
            ("track", .number(fix.trackDegrees)),
            ("eph", .number(fix.horizontalErrorMeters)),
            ("epd", .number(fix.trackErrorDegrees)),
        ]
    }
}
