import Geodesy

/// Writes GPX 1.1 that validates against the schema: its namespace, `version` and `creator`,
/// and every element in the order the schema fixes (`metadata`, `wpt`, `rte`, `trk`; within a
/// point `ele`, `time`, `name`, `sat`, `hdop`).
public enum GPXWriter {
    /// Digits after the point for latitude and longitude: 1e-9° is 0.1 mm, far below any fix.
    static let coordinateDigits = 9

    /// The document as GPX 1.1 text.
    /// - Parameters:
    ///   - document: What to write; its `version` is ignored (always 1.1).
    ///   - creator: The program that wrote it, e.g. `waypointd 0.1.0`.
    public static func text(_ document: GPXDocument, creator: String) -> String {
        var output = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        output += #"<gpx version="1.1" creator="\#(escaped(creator))" xmlns="http://www.topografix.com/GPX/1/1""#
        output += #" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#
        output += #" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">"#
        output += "\n"
        if let name = document.name { output += "  <metadata><name>\(escaped(name))</name></metadata>\n" }
        for point in document.waypoints { write(point, as: "wpt", indent: "  ", to: &output) }
        for route in document.routes {
            output += "  <rte>\n"
            if let name = route.name { output += "    <name>\(escaped(name))</name>\n" }
            for point in route.points { write(point, as: "rtept", indent: "    ", to: &output) }
            output += "  </rte>\n"
        }
        for track in document.tracks {
            output += "  <trk>\n"
            if let name = track.name { output += "    <name>\(escaped(name))</name>\n" }
            for segment in track.segments {
                output += "    <trkseg>\n"
                for point in segment { write(point, as: "trkpt", indent: "      ", to: &output) }
                output += "    </trkseg>\n"
            }
            output += "  </trk>\n"
        }
        output += "</gpx>\n"
        return output
    }

    private static func write(_ point: GPXPoint, as element: String, indent: String, to output: inout String) {
        output += indent + "<\(element) lat=\"\(decimal(point.latitudeDegrees, coordinateDigits))\""
        output += " lon=\"\(decimal(point.longitudeDegrees, coordinateDigits))\""
        var children = ""
        if let elevation = point.elevationMeters, elevation.isFinite { children += "<ele>\(decimal(elevation, 3))</ele>" }
        if let time = point.time { children += "<time>\(escaped(time))</time>" }
        if let name = point.name { children += "<name>\(escaped(name))</name>" }
        if let satellites = point.satellites, satellites >= 0 { children += "<sat>\(satellites)</sat>" }
        if let hdop = point.horizontalDilution, hdop.isFinite { children += "<hdop>\(decimal(hdop, 2))</hdop>" }
        output += children.isEmpty ? "/>\n" : ">" + children + "</\(element)>\n"
    }

    /// An `xsd:decimal` with at most `digits` after the point, trailing zeros dropped.
    static func decimal(_ value: Double, _ digits: Int) -> String {
        var text = DecimalFormat.fixed(value, fractionDigits: digits)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text
    }

    /// Text safe inside an element or a quoted attribute; a character XML 1.0 forbids (most
    /// controls) becomes U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // A raw carriage return would be read back as a line feed (XML's end-of-line rule).
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
