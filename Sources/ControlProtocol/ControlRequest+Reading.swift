import TextFormats

// How each request's fields are read: one function a request, listed in `ControlRequest.readers`.

extension ControlRequest {
    static func readGo(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        if fields.object["place"] != nil {
            if fields.object["lat"] != nil || fields.object["lon"] != nil || fields.object["recent"] != nil {
                throw ControlError(.badArgument, "give one of place, recent, or lat and lon")
            }
            return .goPlace(try fields.name("place"))
        }
        if fields.object["recent"] != nil {
            if fields.object["lat"] != nil || fields.object["lon"] != nil {
                throw ControlError(.badArgument, "give either recent or lat and lon, not both")
            }
            guard let index = try fields.number("recent", in: 1...Double(recentCount)), index == index.rounded() else {
                throw ControlError(.badArgument, "recent must be a whole number from 1 to \(recentCount)")
            }
            return .goRecent(Int(index))
        }
        let place = try readPoint(fields)
        return .go(latitude: place.latitude, longitude: place.longitude, name: place.name, walk: try fields.boolean("walk"))
    }


    static func readWatch(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        let hertz = try fields.number("hz", in: minimumWatchHertz...maximumWatchHertz) ?? defaultWatchHertz
        return .watch(enabled: try fields.boolean("enable") ?? true, hertz: hertz)
    }

    static func readRecent(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        switch try fields.word("action", among: ["list", "remove"], default: "list") {
        case "remove":
            if fields.object["lat"] != nil || fields.object["lon"] != nil {
                if fields.object["index"] != nil { throw ControlError(.badArgument, "give either index or lat and lon, not both") }
                let place = try readPoint(fields)
                return .removeRecentPlace(latitude: place.latitude, longitude: place.longitude)
            }
            guard let index = try fields.number("index", in: 1...Double(recentCount)), index == index.rounded() else {
                throw ControlError(.badArgument, "index must be a whole number from 1 to \(recentCount)")
            }
            return .removeRecent(Int(index))
        default: return .recent
        }
    }

    static func readMute(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        guard let on = try fields.boolean("on") else { throw ControlError(.badArgument, "on is required (true or false)") }
        return .mute(on)
    }

    static func readCalibrate(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        .calibrate(try fields.choice("action", default: .status))
    }

    static func readBuzz(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        .buzz(try fields.choice("pattern", default: .test))
    }

    static func readButton(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        _ = try fields.word("action", among: ["test"], default: "test")
        return .buttonTest(seconds: try fields.number("seconds", in: 0...maximumButtonTestSeconds) ?? 60)
    }

    static func readBack(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        .back(minutes: try fields.number("minutes", in: 1...maximumBackMinutes))
    }

    static func readTrack(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        switch try fields.word("action", among: TrackAction.names, default: "export") {
        case "clear": return .track(.clear)
        default:
            let since = try fields.number("since", in: 0...1e11)
            let until = try fields.number("until", in: 0...1e11)
            let cursor: String?
            switch fields.object["cursor"] {
            case nil, .null?: cursor = nil
            case .string(let text)? where text.utf8.count <= 40: cursor = text
            default: throw ControlError(.badArgument, "cursor must be the previous page's next")
            }
            return .track(.export(since: since, until: until, cursor: cursor))
        }
    }

    static func readSearch(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        guard let query = fields.object["query"]?.string, !query.isEmpty,
            query.count <= maximumQueryCharacters, !query.unicodeScalars.contains(where: PlaceName.isUnprintable)
        else {
            throw ControlError(.badArgument, "query must be a string of 1 to \(maximumQueryCharacters) printable characters")
        }
        let (latitude, longitude) = try readPosition(fields)
        let limit = try fields.number("limit", in: 1...Double(maximumSearchResults)).map { Int($0) } ?? defaultSearchResults
        return .search(query, latitude: latitude, longitude: longitude, limit: limit)
    }

    static func readRoute(_ fields: RequestReader) throws(ControlError) -> ControlRequest { .route(try routeAction(fields)) }

    static func readPlace(_ fields: RequestReader) throws(ControlError) -> ControlRequest { .place(try placeAction(fields)) }

    static func readWhere(_ fields: RequestReader) throws(ControlError) -> ControlRequest {
        let (latitude, longitude) = try readPosition(fields)
        return .whereAmI(latitude: latitude, longitude: longitude)
    }

    /// `lat`, `lon` (required), `name` and `radius` (optional).
    private static func readPoint(_ fields: RequestReader, prefix: String = "") throws(ControlError) -> DestinationReport {
        guard let latitude = try fields.number("lat", in: -90...90, prefix: prefix) else {
            throw ControlError(.badArgument, "\(prefix)lat is required")
        }
        guard let longitude = try fields.number("lon", in: -180...180, prefix: prefix) else {
            throw ControlError(.badArgument, "\(prefix)lon is required")
        }
        return DestinationReport(
            latitude: latitude, longitude: longitude, name: try fields.optionalName("name", prefix: prefix),
            radiusMeters: try fields.number("radius", in: arrivalRadiusRangeMeters, prefix: prefix))
    }

    private static func routeAction(_ fields: RequestReader) throws(ControlError) -> RouteAction {
        let action = try fields.word("action", among: RouteAction.names, default: "show")
        switch action {
        case "load":
            guard let list = fields.object["waypoints"]?.array else {
                throw ControlError(.badArgument, "waypoints must be an array of {\"lat\":…,\"lon\":…} objects")
            }
            guard (1...maximumRouteWaypoints).contains(list.count) else {
                throw ControlError(
                    .badArgument, "a route needs 1 to \(maximumRouteWaypoints) waypoints; this one has \(list.count)")
            }
            var waypoints: [DestinationReport] = []
            waypoints.reserveCapacity(list.count)
            for (index, item) in list.enumerated() {
                guard let object = item.object else {
                    throw ControlError(.badArgument, "waypoints[\(index)] must be an object")
                }
                waypoints.append(try readPoint(RequestReader(object: object), prefix: "waypoints[\(index)]."))
            }
            return .load(name: try fields.optionalName("name"), waypoints: waypoints)
        case "plan":
            var from: DestinationReport?
            if let value = fields.object["from"], value != .null {
                guard let object = value.object else { throw ControlError(.badArgument, "from must be a {\"lat\":…,\"lon\":…} object") }
                from = try readPoint(RequestReader(object: object), prefix: "from.")
            }
            return .plan(
                from: from, to: try readPoint(fields), profile: try fields.word("profile", among: RouteAction.profiles, default: "foot"),
                follow: try fields.boolean("follow") ?? false)
        case "next": return .next
        case "previous": return .previous
        case "reverse": return .reverse
        case "clear": return .clear
        default: return .show
        }
    }

    private static func placeAction(_ fields: RequestReader) throws(ControlError) -> PlaceAction {
        let action = try fields.word("action", among: PlaceAction.names, default: "list")
        switch action {
        case "add":
            let point = try readPoint(fields)
            guard point.name != nil else { throw ControlError(.badArgument, "name is required") }
            return .add(point, replacing: try fields.boolean("replace") ?? false)
        case "mark":
            let seconds =
                try fields.number("seconds", in: 0...PlaceAction.maximumMarkSeconds) ?? PlaceAction.defaultMarkSeconds
            return .mark(
                name: try fields.name("name"), seconds: seconds,
                radiusMeters: try fields.number("radius", in: arrivalRadiusRangeMeters),
                replacing: try fields.boolean("replace") ?? false)
        case "rename": return .rename(try fields.name("name"), to: try fields.name("to"))
        case "remove": return .remove(try fields.name("name"))
        default: return .list
        }
    }

    /// An optional `lat` and `lon`: both or neither.
    private static func readPosition(_ fields: RequestReader) throws(ControlError) -> (Double?, Double?) {
        let latitude = try fields.number("lat", in: -90...90)
        let longitude = try fields.number("lon", in: -180...180)
        guard (latitude == nil) == (longitude == nil) else { throw ControlError(.badArgument, "give lat and lon together") }
        return (latitude, longitude)
    }
}
