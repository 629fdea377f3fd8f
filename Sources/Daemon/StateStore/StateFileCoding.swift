import ControlProtocol
import Core
import Geodesy
import Heading
import TextFormats

/// The JSON form of each state file and the checks on what is read back.
///
/// Decoding is strict: the `version` must be ``currentVersion``, every field must have its
/// type, and numbers must be finite and in range, or the whole file is refused with a
/// ``StateFileDefect`` naming the field. Encoding runs the same checks first, so a file the
/// daemon writes is always one it will read.
enum StateFileCoding {
    /// The format version written into, and required of, every state file.
    static let currentVersion = 1

    // MARK: - Encoding and decoding

    /// The bytes of one state file, from the state.
    /// - Throws: The defect that would make the file unreadable, e.g. an out-of-range latitude
    ///   or a non-finite calibration offset: nothing is written then.
    static func encode(_ file: StateFile, from state: PersistentState) throws(StateFileDefect) -> [UInt8] {
        switch file {
        case .target:
            let document = TargetDocument(
                version: currentVersion, destination: state.destination.map(PlaceRecord.init), route: state.route.map(RouteRecord.init))
            _ = try document.validated()
            return try serialize(document)
        case .recent:
            let records = state.recent.map(PlaceRecord.init)
            for (index, record) in records.enumerated() { _ = try record.validated(field: "recent[\(index)]") }
            return try serialize(RecentDocument(version: currentVersion, recent: records))
        case .mute:
            return try serialize(MuteDocument(version: currentVersion, muted: state.muted))
        case .calibration:
            let record = state.calibration.map(CalibrationRecord.init)
            if let record { _ = try record.validated() }
            return try serialize(CalibrationDocument(version: currentVersion, value: record))
        case .places:
            let document = PlacesDocument(version: currentVersion, places: state.places.map(PlaceRecord.init))
            _ = try document.validated()
            return try serialize(document)
        }
    }

    /// Reads one state file into its item of `state`, with the item's rules applied (at most five
    /// recent destinations, no place name twice).
    /// - Throws: What is wrong with the file; `state` is then unchanged.
    static func decode(_ file: StateFile, _ bytes: [UInt8], into state: inout PersistentState) throws(StateFileDefect) {
        switch file {
        case .target:
            (state.destination, state.route) = try decode(TargetDocument.self, from: bytes).validated()
        case .recent:
            let document = try decode(RecentDocument.self, from: bytes)
            var destinations: [SavedDestination] = []
            for (index, record) in document.recent.enumerated() {
                destinations.append(try record.validated(field: "recent[\(index)]"))
            }
            state.recent = RecentDestinations(destinations)
        case .mute:
            state.muted = try decode(MuteDocument.self, from: bytes).muted
        case .calibration:
            state.calibration = try decode(CalibrationDocument.self, from: bytes).value?.validated()
        case .places:
            state.places = try decode(PlacesDocument.self, from: bytes).validated()
        }
    }

    /// Reads one of the files ``StateFile/target`` replaced (``StateFile/legacyFileNames``)
    /// into its item of `state`.
    /// - Throws: What is wrong with the file; `state` is then unchanged.
    static func decodeLegacy(_ name: String, _ bytes: [UInt8], into state: inout PersistentState) throws(StateFileDefect) {
        switch name {
        case StateFile.legacyDestinationFileName:
            state.destination = try decode(DestinationDocument.self, from: bytes).value?.validated(field: "destination")
        default:
            state.route = try decode(RouteDocument.self, from: bytes).value?.validated()
        }
    }

    // MARK: - Shared

    /// Pretty, sorted JSON with a final newline: the files are small, and people read them.
    private static func serialize(_ document: some Encodable) throws(StateFileDefect) -> [UInt8] {
        do {
            return JSONWriter.bytes(try JSONValueEncoder().encode(document), layout: .pretty) + [UInt8(ascii: "\n")]
        } catch {
            throw .invalidValue(field: "the file", reason: "cannot be encoded as JSON: \(error)")
        }
    }

    private static func decode<Document: Decodable>(_ type: Document.Type, from bytes: [UInt8]) throws(StateFileDefect)
        -> Document
    {
        guard !bytes.isEmpty else { throw .empty }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(detail: error.description)
        }
        let decoder = JSONValueDecoder()
        // The version first, so that a file from a newer build is reported as that rather than
        // as whichever field the newer format changed.
        let probe: VersionProbe
        do {
            probe = try decoder.decode(VersionProbe.self, from: value)
        } catch {
            throw defect(for: error)
        }
        guard probe.version == currentVersion else { throw .unknownVersion(probe.version) }
        do {
            return try decoder.decode(Document.self, from: value)
        } catch {
            throw defect(for: error)
        }
    }

    /// A decoding error as a defect naming the field.
    private static func defect(for error: any Error) -> StateFileDefect {
        guard let error = error as? DecodingError else { return .invalidJSON(detail: "\(error)") }
        switch error {
        case .typeMismatch(let type, let context):
            return .wrongType(field: fieldName(context.codingPath), expected: jsonTypeName(type))
        case .valueNotFound(let type, let context):
            return .wrongType(field: fieldName(context.codingPath), expected: jsonTypeName(type) + ", not null")
        case .keyNotFound(let key, let context):
            return .missingField(fieldName(context.codingPath + [key]))
        case .dataCorrupted(let context):
            return .invalidValue(field: fieldName(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .invalidJSON(detail: "\(error)")
        }
    }

    /// `recent[2].lat` for a coding path; "the file" for the top level.
    private static func fieldName(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if let index = key.intValue {
                name += "[\(index)]"
            } else {
                name += (name.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return name.isEmpty ? "the file" : name
    }

    /// The JSON name of what a Swift type decodes from.
    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            return "a JSON object"
        }
    }
}

// MARK: - The documents

/// Just the version, read before anything else.
private struct VersionProbe: Decodable {
    var version: Int
}

/// A destination as stored: `{"lat":48.8584,"lon":2.2945,"name":"Eiffel Tower","radius":20}`,
/// `name` and `radius` (its own arrival radius, metres) omitted when there are none.
private struct PlaceRecord: Codable {
    var lat: Double
    var lon: Double
    var name: String?
    var radius: Double?

    init(_ destination: SavedDestination) {
        lat = destination.coordinate.latitudeDegrees
        lon = destination.coordinate.longitudeDegrees
        name = destination.name
        radius = destination.arrivalRadiusMeters
    }

    func validated(field: String) throws(StateFileDefect) -> SavedDestination {
        try StateFileCoding.checkDegrees(lat, field: field + ".lat", limit: Coordinate.latitudeLimitDegrees)
        try StateFileCoding.checkDegrees(lon, field: field + ".lon", limit: Coordinate.longitudeLimitDegrees)
        // The protocol's rules: a file must not hold what no request could have set. (Spaces
        // around a name, which an older release kept, are trimmed rather than refused.)
        let checkedName: String?
        do throws(PlaceNameError) {
            checkedName = try PlaceName.validated(name)
        } catch {
            throw .invalidValue(field: field + ".name", reason: "\(error)")
        }
        if let radius {
            guard radius.isFinite else { throw .nonFinite(field: field + ".radius") }
            let range = SavedDestination.arrivalRadiusRangeMeters
            guard range.contains(radius) else {
                throw .outOfRange(
                    field: field + ".radius", value: radius, allowed: "[\(Int(range.lowerBound)), \(Int(range.upperBound))]")
            }
        }
        return SavedDestination(
            coordinate: Coordinate(uncheckedLatitudeDegrees: lat, longitudeDegrees: lon), name: checkedName,
            arrivalRadiusMeters: radius)
    }
}

/// The one field of a document that holds a thing or null: its name and what it holds.
private protocol NullableField {
    associatedtype Value: Codable
    static var name: String { get }
}

/// The legacy `destination.json`'s field.
private enum DestinationField: NullableField {
    typealias Value = PlaceRecord
    static let name = "destination"
}

/// `calibration.json`'s field.
private enum CalibrationField: NullableField {
    typealias Value = CalibrationRecord
    static let name = "calibration"
}

/// `{"version":1,"destination":{…}}` or `{"version":1,"destination":null}`, and the same for
/// the calibration: the key must be there, so that a truncated object is not mistaken for
/// "none".
private struct NullableDocument<Field: NullableField>: Codable {
    var version: Int
    var value: Field.Value?

    init(version: Int, value: Field.Value?) {
        self.version = version
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONCodingKey.self)
        version = try container.decode(Int.self, forKey: JSONCodingKey(stringValue: "version"))
        value = try container.decode(Field.Value?.self, forKey: JSONCodingKey(stringValue: Field.name))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONCodingKey.self)
        try container.encode(version, forKey: JSONCodingKey(stringValue: "version"))
        try container.encode(value, forKey: JSONCodingKey(stringValue: Field.name))
    }
}

/// The legacy `route.json`'s field.
private enum RouteField: NullableField {
    typealias Value = RouteRecord
    static let name = "route"
}

private typealias RouteDocument = NullableDocument<RouteField>
private typealias DestinationDocument = NullableDocument<DestinationField>
private typealias CalibrationDocument = NullableDocument<CalibrationField>

/// `{"version":1,"destination":{…},"route":null}`, `{"version":1,"destination":null,"route":{…}}`
/// or both null: both keys must be there, so that a truncated object is not mistaken for "none".
private struct TargetDocument: Codable {
    var version: Int
    var destination: PlaceRecord?
    var route: RouteRecord?

    private enum CodingKeys: String, CodingKey {
        case version, destination, route
    }

    init(version: Int, destination: PlaceRecord?, route: RouteRecord?) {
        self.version = version
        self.destination = destination
        self.route = route
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        destination = try container.decode(PlaceRecord?.self, forKey: .destination)
        route = try container.decode(RouteRecord?.self, forKey: .route)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(destination, forKey: .destination)
        try container.encode(route, forKey: .route)
    }

    /// The target: at most one of the two (a route's destination is its current waypoint, which
    /// the route itself holds).
    func validated() throws(StateFileDefect) -> (SavedDestination?, SavedRoute?) {
        if destination != nil, route != nil {
            throw .invalidValue(field: "destination", reason: "a target is a destination or a route, not both")
        }
        return (try destination?.validated(field: "destination"), try route?.validated())
    }
}

/// `{"version":1,"recent":[{…},…]}`, newest first.
private struct RecentDocument: Codable {
    var version: Int
    var recent: [PlaceRecord]
}

/// A route as stored: `{"name":"Loop","index":2,"waypoints":[{…},…]}`, `index` the waypoint
/// being walked to, from 0 (the count once finished).
private struct RouteRecord: Codable {
    var name: String?
    var index: Int
    var waypoints: [PlaceRecord]

    init(_ route: SavedRoute) {
        name = route.name
        index = route.index
        waypoints = route.waypoints.map(PlaceRecord.init)
    }

    func validated() throws(StateFileDefect) -> SavedRoute {
        guard (1...SavedRoute.maximumWaypoints).contains(waypoints.count) else {
            throw .outOfRange(
                field: "route.waypoints", value: Double(waypoints.count), allowed: "1 to \(SavedRoute.maximumWaypoints) waypoints")
        }
        guard (0...waypoints.count).contains(index) else {
            throw .outOfRange(field: "route.index", value: Double(index), allowed: "[0, \(waypoints.count)]")
        }
        let checkedName: String?
        do throws(PlaceNameError) {
            checkedName = try PlaceName.validated(name)
        } catch {
            throw .invalidValue(field: "route.name", reason: "\(error)")
        }
        var checked: [SavedDestination] = []
        for (position, waypoint) in waypoints.enumerated() {
            checked.append(try waypoint.validated(field: "route.waypoints[\(position)]"))
        }
        return SavedRoute(name: checkedName, waypoints: checked, index: index)
    }
}

/// `{"version":1,"places":[{…},…]}`: every place named, no name twice (ignoring case).
private struct PlacesDocument: Codable {
    var version: Int
    var places: [PlaceRecord]

    func validated() throws(StateFileDefect) -> PlaceBook {
        guard places.count <= PlaceBook.maximumPlaces else {
            throw .outOfRange(field: "places", value: Double(places.count), allowed: "at most \(PlaceBook.maximumPlaces) places")
        }
        var book = PlaceBook()
        for (position, record) in places.enumerated() {
            let place = try record.validated(field: "places[\(position)]")
            guard place.name != nil else { throw .missingField("places[\(position)].name") }
            do throws(PlaceBook.Refusal) {
                try book.add(place)
            } catch {
                throw .invalidValue(field: "places[\(position)].name", reason: "another place has this name")
            }
        }
        return book
    }
}

/// `{"version":1,"muted":true}`.
private struct MuteDocument: Codable {
    var version: Int
    var muted: Bool
}

/// The quality figures as stored; each is omitted when unknown.
private struct QualityRecord: Codable {
    var fitErrorPercent: Double?
    var coveragePercent: Double?
    var fittedFieldMicrotesla: Double?
    var referenceFieldMicrotesla: Double?
    var sampleCount: Int?
}

/// A calibration as stored, in the recording's terms (`offset`, `matrix` row by row, µT):
/// `{"offset":[bx,by,bz],"matrix":[[…],[…],[…]],"createdAt":"…Z","quality":{…}}`.
private struct CalibrationRecord: Codable {
    var offset: [Double]
    var matrix: [[Double]]
    var createdAt: String
    var quality: QualityRecord?

    init(_ saved: SavedCalibration) {
        let offset = saved.calibration.offsetMicrotesla
        self.offset = [offset.x, offset.y, offset.z]
        matrix = saved.calibration.matrix.array
        createdAt = saved.createdAt.iso8601
        quality = QualityRecord(
            fitErrorPercent: saved.quality.fitErrorPercent, coveragePercent: saved.quality.coveragePercent,
            fittedFieldMicrotesla: saved.quality.fittedFieldMicrotesla,
            referenceFieldMicrotesla: saved.quality.referenceFieldMicrotesla, sampleCount: saved.quality.sampleCount)
    }

    /// The largest coverage there can be, percent.
    private static let fullCoveragePercent = 100.0

    /// The largest hard-iron offset believed, µT on each axis: beyond every supported
    /// magnetometer's full scale (the AK09916's ±4912 µT).
    static let largestOffsetMicrotesla = 5000.0
    /// The largest soft-iron matrix entry believed: a real one is near the identity.
    static let largestMatrixEntry = 10.0

    func validated() throws(StateFileDefect) -> SavedCalibration {
        let offset = try Self.vector(offset, field: "calibration.offset", limit: Self.largestOffsetMicrotesla)
        guard matrix.count == 3 else {
            throw .wrongCount(field: "calibration.matrix", expected: 3, found: matrix.count)
        }
        let rows = [
            try Self.vector(matrix[0], field: "calibration.matrix[0]", limit: Self.largestMatrixEntry),
            try Self.vector(matrix[1], field: "calibration.matrix[1]", limit: Self.largestMatrixEntry),
            try Self.vector(matrix[2], field: "calibration.matrix[2]", limit: Self.largestMatrixEntry),
        ]
        let matrix = Matrix3(rows[0], rows[1], rows[2])
        // A singular matrix maps the field onto a plane or a line: headings from it are garbage.
        guard matrix.inverse != nil else { throw .singularMatrix(field: "calibration.matrix") }
        guard let createdAt = UTCTime(iso8601: createdAt) else {
            throw .invalidValue(
                field: "calibration.createdAt", reason: "not a UTC time such as 2026-05-01T12:00:00.000Z")
        }
        let figures = quality ?? QualityRecord()
        let quality = SavedCalibration.Quality(
            fitErrorPercent: try Self.nonNegative(
                figures.fitErrorPercent, field: "calibration.quality.fitErrorPercent"),
            coveragePercent: try Self.nonNegative(
                figures.coveragePercent, field: "calibration.quality.coveragePercent", maximum: Self.fullCoveragePercent
            ),
            fittedFieldMicrotesla: try Self.nonNegative(
                figures.fittedFieldMicrotesla, field: "calibration.quality.fittedFieldMicrotesla"),
            referenceFieldMicrotesla: try Self.nonNegative(
                figures.referenceFieldMicrotesla, field: "calibration.quality.referenceFieldMicrotesla"),
            sampleCount: try Self.nonNegative(figures.sampleCount, field: "calibration.quality.sampleCount"))
        return SavedCalibration(
            calibration: MagneticCalibration(offsetMicrotesla: offset, matrix: matrix), createdAt: createdAt,
            quality: quality)
    }

    private static func vector(_ values: [Double], field: String, limit: Double) throws(StateFileDefect) -> Vector3 {
        guard values.count == 3 else { throw .wrongCount(field: field, expected: 3, found: values.count) }
        for (index, value) in values.enumerated() {
            guard value.isFinite else { throw .nonFinite(field: "\(field)[\(index)]") }
            guard abs(value) <= limit else {
                throw .outOfRange(field: "\(field)[\(index)]", value: value, allowed: "[-\(Int(limit)), \(Int(limit))]")
            }
        }
        return Vector3(values[0], values[1], values[2])
    }

    private static func nonNegative(_ value: Double?, field: String, maximum: Double = .infinity)
        throws(StateFileDefect) -> Double?
    {
        guard let value else { return nil }
        guard value.isFinite else { throw .nonFinite(field: field) }
        guard value >= 0, value <= maximum else {
            throw .outOfRange(field: field, value: value, allowed: maximum.isFinite ? "[0, \(Int(maximum))]" : "[0, ∞)")
        }
        return value
    }

    private static func nonNegative(_ value: Int?, field: String) throws(StateFileDefect) -> Int? {
        guard let value else { return nil }
        guard value >= 0 else { throw .outOfRange(field: field, value: Double(value), allowed: "[0, ∞)") }
        return value
    }
}

extension StateFileCoding {
    /// Checks a latitude or longitude: finite and within ±`limit` degrees.
    fileprivate static func checkDegrees(_ value: Double, field: String, limit: Double) throws(StateFileDefect) {
        guard value.isFinite else { throw .nonFinite(field: field) }
        guard value.magnitude <= limit else {
            throw .outOfRange(field: field, value: value, allowed: "[-\(Int(limit)), \(Int(limit))]")
        }
    }
}
