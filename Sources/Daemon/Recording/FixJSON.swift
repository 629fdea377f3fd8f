import Geodesy

/// A fix as one JSON object, the form `waypointd gps` prints and recordings store:
/// `{"time":"2026-05-01T12:00:00.500Z","mode":3,"lat":…,"lon":…,"altHAE":…,"altMSL":…,
/// "speed":…,"track":…,"eph":…,"epd":…}`, with `null` for what is unknown. Field names follow
/// gpsd's TPV so that tools that read gpsd JSON read these too.
public enum FixJSON {
    /// The JSON text of `fix`, on one line.
    public static func encode(_ fix: Fix) -> String {
        let fields: [(String, String)] = [
            ("time", fix.time.map { "\"\($0.iso8601)\"" } ?? "null"),
            ("mode", String(fix.mode.rawValue)),
            ("lat", number(fix.coordinate?.latitudeDegrees)),
            ("lon", number(fix.coordinate?.longitudeDegrees)),
            ("altHAE", number(fix.altitudeHAEMeters)),
            ("altMSL", number(fix.altitudeMSLMeters)),
            ("speed", number(fix.speedMetersPerSecond)),
            ("track", number(fix.trackDegrees)),
            ("eph", number(fix.horizontalErrorMeters)),
            ("epd", number(fix.trackErrorDegrees)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A finite number in its shortest exact form, or `null`.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }
}
