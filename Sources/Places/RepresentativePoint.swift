#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One point that stands for a feature of the map: for a line, the point halfway along it; for
/// an area, a point inside it (on a horizontal line through the middle of its largest polygon,
/// the middle of the widest stretch that lies inside). Not the average of the nodes: that can
/// fall outside a concave area, or off a bending street. Pure; coordinates as GeoJSON has
/// them, longitude first.
public enum RepresentativePoint {
    /// A position, GeoJSON order.
    public typealias Position = (longitude: Double, latitude: Double)

    /// The point halfway along a line (by length in degrees, scaled for longitude at the line's
    /// latitude: fine at the scale of a street).
    public static func alongLine(_ line: [Position]) -> Position? {
        guard let first = line.first else { return nil }
        guard line.count > 1 else { return first }
        let scale = cos(first.latitude * .pi / 180)
        func length(_ a: Position, _ b: Position) -> Double {
            let dx = (b.longitude - a.longitude) * scale
            let dy = b.latitude - a.latitude
            return (dx * dx + dy * dy).squareRoot()
        }
        let total = zip(line, line.dropFirst()).reduce(0) { $0 + length($1.0, $1.1) }
        guard total > 0 else { return first }
        var remaining = total / 2
        for (a, b) in zip(line, line.dropFirst()) {
            let step = length(a, b)
            if step >= remaining, step > 0 {
                let t = remaining / step
                return (a.longitude + t * (b.longitude - a.longitude), a.latitude + t * (b.latitude - a.latitude))
            }
            remaining -= step
        }
        return line.last
    }

    /// A point inside a polygon given as rings (the outer one first, then its holes), by the
    /// even–odd rule; nil when the rings enclose nothing.
    public static func insidePolygon(_ rings: [[Position]]) -> Position? {
        let points = rings.flatMap { $0 }
        guard let south = points.map(\.latitude).min(), let north = points.map(\.latitude).max() else { return nil }
        // The middle latitude, moved off any vertex so that no edge is met at its end.
        var latitude = (south + north) / 2
        let vertexLatitudes = Set(points.map(\.latitude))
        var nudge = (north - south) * 1e-6
        while vertexLatitudes.contains(latitude), nudge > 0 {
            latitude += nudge
            nudge *= 2
        }
        var crossings: [Double] = []
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) where (a.latitude < latitude) != (b.latitude < latitude) {
                let t = (latitude - a.latitude) / (b.latitude - a.latitude)
                crossings.append(a.longitude + t * (b.longitude - a.longitude))
            }
        }
        crossings.sort()
        var best: (width: Double, middle: Double)?
        for pair in stride(from: 0, to: crossings.count - 1, by: 2) {
            let width = crossings[pair + 1] - crossings[pair]
            if width > (best?.width ?? -1) { best = (width, (crossings[pair] + crossings[pair + 1]) / 2) }
        }
        return best.map { ($0.middle, latitude) }
    }

    /// A point inside the largest (by bounding box) of several polygons.
    public static func insideMultiPolygon(_ polygons: [[[Position]]]) -> Position? {
        func boxArea(_ polygon: [[Position]]) -> Double {
            guard let outer = polygon.first, let s = outer.map(\.latitude).min(), let n = outer.map(\.latitude).max(),
                let w = outer.map(\.longitude).min(), let e = outer.map(\.longitude).max()
            else { return 0 }
            return (n - s) * (e - w)
        }
        for polygon in polygons.sorted(by: { boxArea($0) > boxArea($1) }) {
            if let point = insidePolygon(polygon) { return point }
        }
        return nil
    }
}
