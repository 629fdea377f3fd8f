import Geodesy

#if canImport(Glibc)
import Glibc
#endif

extension PlaceIndexReader {
    /// The kinds of place that name a town for "where am I".
    static let townKinds = ["city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet"]

    /// The nearest address within ``addressRadiusMeters`` of `point`, else the nearest named
    /// street within `streetRadiusMeters`, with the town; nil when neither is near.
    public func whereIs(_ point: Coordinate, streetRadiusMeters: Double = 2000) throws(PlaceIndexError) -> WhereAnswer? {
        try lock.withLock { _ throws(PlaceIndexError) in try whereLocked(point, streetRadiusMeters: streetRadiusMeters) }
    }

    private func whereLocked(_ point: Coordinate, streetRadiusMeters: Double) throws(PlaceIndexError) -> WhereAnswer? {
        do throws(SQLiteError) {
            let town = try nearestTown(point)
            if let address = try nearestAddress(point) { return WhereAnswer(place: town, address) }
            // A tunnel only when nothing on or above the ground is near: a walker is on the
            // surface, and a street under the rock is no help finding the way (issue 40).
            var street = try nearestStreet(point, radiusMeters: streetRadiusMeters, lowestLevel: 0)
            if street == nil { street = try nearestStreet(point, radiusMeters: streetRadiusMeters, lowestLevel: .min) }
            guard var street else { return nil }
            street.place = town
            return street
        } catch {
            throw .unreadable(path: database.path, error)
        }
    }

    private func nearestAddress(_ point: Coordinate) throws(SQLiteError) -> WhereAnswer? {
        // The places of the few id ranges that hold the box, addresses kept: a spatial key's
        // cells are metres across, so the ranges hold the box's places and a few hundred others.
        let statement = try database.prepare(
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
        let statement = try database.prepare(
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
        let statement = try database.prepare(
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
