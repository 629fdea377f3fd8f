import Geodesy
import Places

#if canImport(Glibc)
import Glibc
#endif

extension PlaceIndexReader {
    /// The nearest address within ``addressRadiusMeters`` of `point`, else the nearest named
    /// street within `streetRadiusMeters`, with the town; nil when neither is near.
    public func whereIs(_ point: Coordinate, streetRadiusMeters: Double = 2000) throws(PlaceIndexError) -> WhereAnswer? {
        try lock.withLock { _ throws(PlaceIndexError) in
            defer { resetStatements() }
            return try whereLocked(point, streetRadiusMeters: streetRadiusMeters)
        }
    }

    private func whereLocked(_ point: Coordinate, streetRadiusMeters: Double) throws(PlaceIndexError) -> WhereAnswer? {
        do throws(SQLiteError) {
            let town = try nearestTown(point)
            let area = try enclosingArea(point)
            if var address = try nearestAddress(point) {
                (address.inside, address.insideKind) = (area?.name, area?.kind)
                return WhereAnswer(place: town, address)
            }
            // A tunnel only when nothing on or above the ground is near: a walker is on the
            // surface, and a street under the rock is no help finding the way (issue 40).
            var street = try nearestStreet(point, radiusMeters: streetRadiusMeters, lowestLevel: 0)
            if street == nil { street = try nearestStreet(point, radiusMeters: streetRadiusMeters, lowestLevel: .min) }
            guard var street else { return nil }
            street.place = town
            (street.inside, street.insideKind) = (area?.name, area?.kind)
            return street
        } catch {
            throw .unreadable(path: database.path, error)
        }
    }

    private func nearestAddress(_ point: Coordinate) throws(SQLiteError) -> WhereAnswer? {
        // The places of the few id ranges that hold the box, addresses kept: a spatial key's
        // cells are metres across, so the ranges hold the box's places and a few hundred others.
        let statement = try statement(
            """
            SELECT s.name, p.housenumber, p.lat, p.lon FROM places AS p JOIN streets AS s ON s.id = p.street
            WHERE p.id BETWEEN ? AND ? AND p.housenumber IS NOT NULL
            """)
        var best: WhereAnswer?
        for range in Self.box(around: point, halfSideMeters: Self.addressRadiusMeters).ranges {
            try statement.bind([.integer(range.lowerBound), .integer(range.upperBound)])
            while try statement.step() {
                let target = Coordinate(
                    uncheckedLatitudeDegrees: Double(statement.integer(2)) * PlaceIndexSchema.degreesPerUnit,
                    longitudeDegrees: Double(statement.integer(3)) * PlaceIndexSchema.degreesPerUnit)
                let inverse = Geodesic.wgs84.inverse(from: point, to: target)
                guard inverse.distanceMeters <= Self.addressRadiusMeters, inverse.distanceMeters < (best?.distanceMeters ?? .infinity)
                else { continue }
                let street = statement.text(0)
                let number = statement.text(1)
                best = WhereAnswer(
                    address: [street, number].compactMap { $0 }.joined(separator: " "), street: street, housenumber: number, place: nil,
                    distanceMeters: inverse.distanceMeters, bearingDegrees: Angle.normalized(inverse.initialAzimuthDegrees),
                    latitude: target.latitudeDegrees, longitude: target.longitudeDegrees)
            }
        }
        return best
    }

    /// The nearest segment of a named street at `lowestLevel` or above (``MapFeature/level``):
    /// a bridge is answered when it is nearer than anything on the ground.
    func nearestStreet(_ point: Coordinate, radiusMeters: Double, lowestLevel: Int64) throws(SQLiteError) -> WhereAnswer? {
        let statement = try statement(
            """
            SELECT s.name, g.lat1, g.lon1, g.lat2, g.lon2 FROM segment_box AS b CROSS JOIN segments AS g ON g.id = b.id
            JOIN streets AS s ON s.id = g.street
            WHERE b.max_lat >= ? AND b.min_lat <= ? AND b.max_lon >= ? AND b.min_lon <= ? AND g.level >= ?
            """)
        let degrees = { (column: Int32) in Double(statement.integer(column)) * PlaceIndexSchema.degreesPerUnit }
        // Nearest first within a small box, growing it only when nothing is there, up to the
        // whole radius.
        var meters = 100.0
        while true {
            let span = min(meters, radiusMeters)
            try statement.bind(Self.box(around: point, halfSideMeters: span).units.map(SQLiteDatabase.Value.integer) + [.integer(lowestLevel)])
            var best: (street: String, point: Coordinate, inverse: GeodesicInverse)?
            while try statement.step() {
                let nearest = Self.nearestPoint(on: (degrees(1), degrees(2)), (degrees(3), degrees(4)), to: point)
                let inverse = Geodesic.wgs84.inverse(from: point, to: nearest)
                if inverse.distanceMeters < (best?.inverse.distanceMeters ?? .infinity), inverse.distanceMeters <= radiusMeters {
                    best = (statement.text(0) ?? "", nearest, inverse)
                }
            }
            // A street found in the box may still be beaten by one just outside it, no nearer
            // than the box's half-width: accept it only when it is within that.
            if let best, best.inverse.distanceMeters <= span {
                return WhereAnswer(
                    address: nil, street: best.street, housenumber: nil, place: nil, distanceMeters: best.inverse.distanceMeters,
                    bearingDegrees: Angle.normalized(best.inverse.initialAzimuthDegrees), latitude: best.point.latitudeDegrees,
                    longitude: best.point.longitudeDegrees)
            }
            if span == radiusMeters { return nil }
            meters *= 4
        }
    }

    /// The nearest named town within ``townRadiusMeters``, from `town_box` (towns alone).
    private func nearestTown(_ point: Coordinate) throws(SQLiteError) -> String? {
        let statement = try statement(
            "SELECT name, min_lat, min_lon FROM town_box WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?")
        try statement.bind(Self.box(around: point, halfSideMeters: Self.townRadiusMeters).units.map(SQLiteDatabase.Value.integer))
        var best: (name: String, meters: Double)?
        while try statement.step() {
            let town = Coordinate(
                uncheckedLatitudeDegrees: Double(statement.integer(1)) * PlaceIndexSchema.degreesPerUnit,
                longitudeDegrees: Double(statement.integer(2)) * PlaceIndexSchema.degreesPerUnit)
            let meters = Geodesic.wgs84.inverse(from: point, to: town).distanceMeters
            if meters <= Self.townRadiusMeters, meters < (best?.meters ?? .infinity) { best = (statement.text(0) ?? "", meters) }
        }
        return best?.name
    }

    /// The most areas whose boxes hold a point that are tested for it: squares within
    /// parks within a station's grounds are a handful.
    static let maximumEnclosingCandidates = 64
    /// The most bytes of an outline read: ``MapFeature/maximumLinePoints`` pairs.
    static let maximumOutlineBytes = MapFeature.maximumLinePoints * 8

    /// The smallest named area (``MapFeature/outline``) holding `point`: a square, a park, a
    /// station. Its box first (`area_box`), then its outline (even-odd rule, on the units).
    func enclosingArea(_ point: Coordinate) throws(SQLiteError) -> (name: String, kind: String?)? {
        let statement = try statement(
            """
            SELECT a.name, a.kind, a.outline, (b.max_lat - b.min_lat) * (b.max_lon - b.min_lon) AS size
            FROM area_box AS b CROSS JOIN areas AS a ON a.id = b.id
            WHERE b.min_lat <= ?1 AND b.max_lat >= ?1 AND b.min_lon <= ?2 AND b.max_lon >= ?2 ORDER BY size LIMIT \(Self.maximumEnclosingCandidates)
            """)
        let y = PlaceIndexWriter.units(point.latitudeDegrees)
        let x = PlaceIndexWriter.units(point.longitudeDegrees)
        try statement.bind([.integer(y), .integer(x)])
        while try statement.step() {
            guard let outline = statement.blob(2, maximumBytes: Self.maximumOutlineBytes), Self.contains(outline, y: y, x: x) else { continue }
            let found = (name: statement.text(0) ?? "", kind: statement.text(1))
            statement.reset()
            return found
        }
        return nil
    }

    /// Whether the ring of little-endian 32-bit latitude, longitude pairs holds (y, x): a ray
    /// eastward crosses its edges an odd number of times.
    static func contains(_ outline: [UInt8], y: Int64, x: Int64) -> Bool {
        let count = outline.count / 8
        guard count >= 3 else { return false }
        func vertex(_ index: Int) -> (y: Double, x: Double) {
            let value = { (offset: Int) in
                Int32(littleEndian: outline[offset..<offset + 4].enumerated().reduce(0) { $0 | Int32($1.element) << (8 * $1.offset) })
            }
            return (Double(value(index * 8)), Double(value(index * 8 + 4)))
        }
        let (py, px) = (Double(y), Double(x))
        var inside = false
        var previous = vertex(count - 1)
        for index in 0..<count {
            let current = vertex(index)
            if (current.y > py) != (previous.y > py),
                px < (previous.x - current.x) * (py - current.y) / (previous.y - current.y) + current.x
            {
                inside.toggle()
            }
            previous = current
        }
        return inside
    }

    /// The point of segment a–b nearest `point`, on a local flat projection (metres east and
    /// north of `point`): exact enough over a street's length.
    static func nearestPoint(on a: (Double, Double), _ b: (Double, Double), to point: Coordinate) -> Coordinate {
        let scale = cos(point.latitudeDegrees * .pi / 180)
        let ax = (a.1 - point.longitudeDegrees) * scale
        let ay = a.0 - point.latitudeDegrees
        let bx = (b.1 - point.longitudeDegrees) * scale
        let by = b.0 - point.latitudeDegrees
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(max(-(ax * dx + ay * dy) / lengthSquared, 0), 1) : 0
        return Coordinate(uncheckedLatitudeDegrees: a.0 + t * (b.0 - a.0), longitudeDegrees: a.1 + t * (b.1 - a.1))
    }
}

extension WhereAnswer {
    /// An address answer with its town.
    init(place: String?, _ address: WhereAnswer) {
        self = address
        self.place = place
    }
}
