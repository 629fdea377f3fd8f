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
            guard var street = try nearestStreet(point, radiusMeters: streetRadiusMeters) else { return nil }
            street.place = town
            return street
        } catch {
            throw .unreadable(path: database.path, error)
        }
    }

    /// Degrees of latitude and longitude that span at least `meters` around `point`.
    static func box(_ point: Coordinate, meters: Double) -> [SQLiteDatabase.Value] {
        let latitude = meters / 111_000
        let longitude = meters / (111_000 * max(cos(point.latitudeDegrees * .pi / 180), 0.01))
        return [
            .real(point.latitudeDegrees - latitude), .real(point.latitudeDegrees + latitude),
            .real(point.longitudeDegrees - longitude), .real(point.longitudeDegrees + longitude),
        ]
    }

    private func nearestAddress(_ point: Coordinate) throws(SQLiteError) -> WhereAnswer? {
        let statement = try database.prepare(
            """
            SELECT street, housenumber, lat, lon FROM places JOIN place_box USING (id)
            WHERE housenumber IS NOT NULL AND street IS NOT NULL
              AND max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        try statement.bind(Self.box(point, meters: Self.addressRadiusMeters))
        var best: WhereAnswer?
        while try statement.step() {
            let target = Coordinate(uncheckedLatitudeDegrees: statement.real(2), longitudeDegrees: statement.real(3))
            let inverse = Geodesic.wgs84.inverse(from: point, to: target)
            guard inverse.distanceMeters <= Self.addressRadiusMeters, inverse.distanceMeters < (best?.distanceMeters ?? .infinity)
            else { continue }
            let street = statement.text(0)
            let number = statement.text(1)
            best = WhereAnswer(
                address: [street, number].compactMap { $0 }.joined(separator: " "), street: street, housenumber: number, place: nil,
                distanceMeters: inverse.distanceMeters, bearingDegrees: Angle.normalized(inverse.initialAzimuthDegrees), latitude: target.latitudeDegrees,
                longitude: target.longitudeDegrees)
        }
        return best
    }

    private func nearestStreet(_ point: Coordinate, radiusMeters: Double) throws(SQLiteError) -> WhereAnswer? {
        let statement = try database.prepare(
            """
            SELECT street, lat1, lon1, lat2, lon2 FROM segments JOIN segment_box USING (id)
            WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        // Nearest first within a small box, growing it only when nothing is there, up to the
        // whole radius.
        var meters = 100.0
        while true {
            let span = min(meters, radiusMeters)
            try statement.bind(Self.box(point, meters: span))
            var best: (street: String, point: Coordinate, inverse: GeodesicInverse)?
            while try statement.step() {
                let nearest = Self.nearestPoint(
                    on: (statement.real(1), statement.real(2)), (statement.real(3), statement.real(4)), to: point)
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

    private func nearestTown(_ point: Coordinate) throws(SQLiteError) -> String? {
        let statement = try database.prepare(
            """
            SELECT name, lat, lon FROM places JOIN place_box USING (id)
            WHERE kind IN (\(Self.townKinds.map { "'\($0)'" }.joined(separator: ", "))) AND name IS NOT NULL
              AND max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        try statement.bind(Self.box(point, meters: Self.townRadiusMeters))
        var best: (name: String, meters: Double)?
        while try statement.step() {
            let meters = Geodesic.wgs84.inverse(
                from: point, to: Coordinate(uncheckedLatitudeDegrees: statement.real(1), longitudeDegrees: statement.real(2))
            ).distanceMeters
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
