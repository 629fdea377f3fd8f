/// Builds a ``GPXDocument`` from the events of an XML parser: element starts and ends, and
/// text. Pure (no parser, no IO), so its rules are tested with events alone; ``GPXReader``
/// feeds it from expat.
///
/// GPX 1.1 and 1.0 are read alike, and so is a file that declares no namespace at all (real
/// tools write such files). Elements in other namespaces (extensions) are read past.
struct GPXBuilder {
    /// The namespaces of GPX 1.1 and 1.0.
    static let namespaces = ["http://www.topografix.com/GPX/1/1": "1.1", "http://www.topografix.com/GPX/1/0": "1.0"]

    let limits: GPXReader.Limits
    private(set) var document = GPXDocument()
    /// The local names of the open elements, outermost first; nil for one outside GPX.
    private var open: [String?] = []
    private var point: GPXPoint?
    private var route: GPXRoute?
    private var track: GPXTrack?
    private var segment: [GPXPoint]?
    private var text: [UInt8] = []
    private var pointCount = 0

    init(limits: GPXReader.Limits) { self.limits = limits }

    /// An element starts.
    /// - Parameters:
    ///   - namespace: Its namespace URI, or nil for none.
    ///   - name: Its local name.
    ///   - attributes: Its attributes without a namespace, by name.
    ///   - position: Where it starts.
    mutating func start(
        namespace: String?, name: String, attributes: [String: String], at position: GPXError.Position
    ) throws(GPXError) {
        guard open.count < limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth, at: position) }
        let isGPX = namespace == nil || Self.namespaces[namespace!] != nil
        if open.isEmpty {
            guard isGPX, name == "gpx" else { throw .notGPX(root: name, at: position) }
            document.version = namespace.flatMap { Self.namespaces[$0] } ?? attributes["version"] ?? "1.1"
        }
        let local = isGPX && !open.contains(nil) ? name : nil
        let parent = open.last ?? nil
        open.append(local)
        text.removeAll(keepingCapacity: true)
        switch (parent, local) {
        case ("gpx"?, "wpt"?), ("rte"?, "rtept"?), ("trkseg"?, "trkpt"?):
            guard pointCount < limits.maximumPoints else { throw .tooManyPoints(limit: limits.maximumPoints, at: position) }
            pointCount += 1
            point = try Self.point(name, attributes, at: position)
        case ("gpx"?, "rte"?): route = GPXRoute()
        case ("gpx"?, "trk"?): track = GPXTrack()
        case ("trk"?, "trkseg"?): segment = []
        default: break
        }
    }

    /// Text inside the innermost open element.
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, at position: GPXError.Position) throws(GPXError) {
        // Only the text of the few elements that are kept is kept, and not without bound.
        guard let innermost = open.last ?? nil, Self.keptText.contains(innermost) else { return }
        guard text.count + bytes.count <= limits.maximumTextBytes else {
            throw .textTooLong(element: innermost, limit: limits.maximumTextBytes, at: position)
        }
        text.append(contentsOf: bytes)
    }

    /// The elements whose text is read.
    private static let keptText: Set<String> = ["name", "ele", "time", "sat", "hdop"]

    /// The innermost element ends.
    mutating func end(at position: GPXError.Position) throws(GPXError) {
        guard let closing = open.popLast() else { return }
        let parent = open.last ?? nil
        let value = String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
        switch (parent, closing) {
        case ("gpx"?, "wpt"?), ("rte"?, "rtept"?), ("trkseg"?, "trkpt"?):
            guard let finished = point else { return }
            point = nil
            switch closing {
            case "wpt": document.waypoints.append(finished)
            case "rtept": route?.points.append(finished)
            default: segment?.append(finished)
            }
        case ("gpx"?, "rte"?):
            if let route { document.routes.append(route) }
            route = nil
        case ("gpx"?, "trk"?):
            if let track { document.tracks.append(track) }
            track = nil
        case ("trk"?, "trkseg"?):
            if let segment { track?.segments.append(segment) }
            segment = nil
        case ("wpt"?, let field?), ("rtept"?, let field?), ("trkpt"?, let field?):
            try setField(field, value, at: position)
        case ("rte"?, "name"?): route?.name = Self.trimmed(value)
        case ("trk"?, "name"?): track?.name = Self.trimmed(value)
        case ("metadata"?, "name"?), ("gpx"?, "name"?): document.name = Self.trimmed(value)
        default: break
        }
    }

    private mutating func setField(_ field: String, _ value: String, at position: GPXError.Position) throws(GPXError) {
        let trimmed = Self.trimmed(value)
        switch field {
        case "name": point?.name = trimmed
        case "time": point?.time = trimmed
        case "ele": point?.elevationMeters = try Self.decimal(trimmed ?? "", element: field, at: position)
        case "hdop": point?.horizontalDilution = try Self.decimal(trimmed ?? "", element: field, at: position)
        case "sat":
            guard let text = trimmed, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(text) else {
                throw .badValue(element: field, value: Self.shown(value), reason: "is not a whole number", at: position)
            }
            point?.satellites = count
        default: break
        }
    }

    /// A point's `lat` and `lon`, checked.
    private static func point(_ element: String, _ attributes: [String: String], at position: GPXError.Position)
        throws(GPXError) -> GPXPoint
    {
        func coordinate(_ name: String, limit: Double) throws(GPXError) -> Double {
            guard let text = attributes[name] else { throw .missingAttribute(element: element, attribute: name, at: position) }
            let degrees = try decimal(text, element: element, at: position)
            guard abs(degrees) <= limit else {
                throw .badValue(
                    element: element, value: shown(text),
                    reason: "is out of range for \(name) (between -\(Int(limit)) and \(Int(limit)))", at: position)
            }
            return degrees
        }
        return GPXPoint(
            latitudeDegrees: try coordinate("lat", limit: 90), longitudeDegrees: try coordinate("lon", limit: 180))
    }

    /// An `xsd:decimal`: an optional sign, digits with at most one point, no exponent, no
    /// `NaN` or `INF`; spaces around it allowed.
    static func decimal(_ text: String, element: String, at position: GPXError.Position) throws(GPXError) -> Double {
        let bytes = Array(text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        var trimmed = bytes[...]
        while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { trimmed.removeLast() }
        var digits = trimmed
        if let first = digits.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { digits.removeFirst() }
        let points = digits.filter { $0 == UInt8(ascii: ".") }.count
        let isDecimal =
            !digits.isEmpty && digits.count <= 40 && points <= 1 && digits.contains { $0 >= 0x30 && $0 <= 0x39 }
            && digits.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
        guard isDecimal, let value = Double(String(decoding: trimmed, as: UTF8.self)), value.isFinite else {
            throw .badValue(element: element, value: shown(text), reason: "is not a decimal number", at: position)
        }
        return value
    }

    /// Text without the whitespace around it; nil when nothing is left.
    private static func trimmed(_ text: String) -> String? {
        let scalars = text.unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }
        let result = String(String.UnicodeScalarView(scalars.reversed()))
        return result.isEmpty ? nil : result
    }

    /// A value as shown in a message: at most 40 characters.
    private static func shown(_ text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }
}
