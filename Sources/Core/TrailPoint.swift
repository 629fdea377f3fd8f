import Geodesy

/// One point of the breadcrumb trail: a kept fix, as `trail.log` holds it, one line each:
///
/// ```
/// S 1782950400.000 48.8556000 2.2986000 35.2 4.0 1.1 9
/// P 1782950405.000 48.8556450 2.2986000 35.3 4.0 1.1 9
/// ```
///
/// `S` starts a segment (after a gap or a lost fix), `P` continues one; then the fix's UTC
/// time (POSIX seconds), latitude and longitude (degrees, 7 decimals: 1 cm), altitude above
/// mean sea level (m, what GPX's `ele` holds), eph (m), HDOP and satellites used, `-` where
/// unknown. A line `G 1782950400.000` marks when guidance started (``TrailLog``), for `back`;
/// it is no point, and exports skip it.
public struct TrailPoint: Sendable, Hashable {
    /// The fix's time, seconds since 1970 UTC.
    public var utcSeconds: Double
    public var coordinate: Coordinate
    /// Altitude above mean sea level, metres.
    public var elevationMeters: Double?
    public var horizontalErrorMeters: Double?
    public var hdop: Double?
    public var satellites: Int?
    /// Whether a new segment starts here.
    public var startsSegment: Bool

    /// A point from its parts.
    public init(
        utcSeconds: Double, coordinate: Coordinate, elevationMeters: Double? = nil, horizontalErrorMeters: Double? = nil,
        hdop: Double? = nil, satellites: Int? = nil, startsSegment: Bool = false
    ) {
        self.utcSeconds = utcSeconds
        self.coordinate = coordinate
        self.elevationMeters = elevationMeters
        self.horizontalErrorMeters = horizontalErrorMeters
        self.hdop = hdop
        self.satellites = satellites
        self.startsSegment = startsSegment
    }

    /// The point's line, newline included.
    public var line: String {
        var bytes: [UInt8] = []
        appendLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the point's line, newline included, to `bytes`: without allocating once `bytes`
    /// has room, as the trail's appends need.
    public func appendLine(to bytes: inout [UInt8]) {
        func field(_ value: Double?, _ digits: Int) {
            bytes.append(UInt8(ascii: " "))
            if let value, value.isFinite {
                DecimalFormat.appendFixed(value, fractionDigits: digits, to: &bytes)
            } else {
                bytes.append(UInt8(ascii: "-"))
            }
        }
        bytes.append(startsSegment ? UInt8(ascii: "S") : UInt8(ascii: "P"))
        field(utcSeconds, 3)
        field(coordinate.latitudeDegrees, 7)
        field(coordinate.longitudeDegrees, 7)
        field(elevationMeters, 1)
        field(horizontalErrorMeters, 1)
        field(hdop, 1)
        bytes.append(UInt8(ascii: " "))
        if let satellites { DecimalFormat.appendInteger(satellites, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Room kept for a point's line in an append's buffer, bytes: a line is about 55 bytes, and
    /// one with outlandish figures (a 10^15 m elevation) only grows the buffer.
    package static let maximumLineBytes = 128

    /// Reads a line (without its newline); nil for one that is not a point (a line cut short by
    /// a power cut, say), which the trail skips.
    public init?(line: Substring) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 8, fields[0] == "S" || fields[0] == "P", let time = Double(fields[1]), time.isFinite,
            let latitude = Double(fields[2]), let longitude = Double(fields[3]),
            let coordinate = try? Coordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
        else { return nil }
        func optional(_ field: Substring) -> Double? { Double(field).flatMap { $0.isFinite ? $0 : nil } }
        self.init(
            utcSeconds: time, coordinate: coordinate, elevationMeters: optional(fields[4]),
            horizontalErrorMeters: optional(fields[5]), hdop: optional(fields[6]), satellites: Int(fields[7]),
            startsSegment: fields[0] == "S")
    }
}
