import TextFormats
/// A line the daemon sends: the greeting, or the reply to one request.
public enum ControlReply: Sendable, Hashable {
    /// `{"class":"VERSION","release":…,"proto":…}`, sent once on connect.
    case version(VersionGreeting)
    /// `{"class":"OK"}`: the request was carried out.
    case ok
    /// `{"class":"STATUS",…}`; see ``StatusReport``.
    case status(StatusReport)
    /// `{"class":"RECENT","destinations":[{"lat":…,"lon":…,"name":…},…]}`, most recent first.
    case recent([DestinationReport])
    /// `{"class":"ROUTE","route":{…}}`, or `"route":null` when none is loaded; see ``RouteReport``.
    case route(RouteReport?)
    /// `{"class":"TRACK","points":[…],"next":…}`: a page of the trail; see ``TrackReport``.
    case track(TrackReport)
    /// `{"class":"PLACES","places":[{"lat":…,"lon":…,"name":…},…]}`, in the order they were made.
    case places([DestinationReport])
    /// `{"class":"PLACE","place":{…},"error":…,"fixes":…}`, for `place mark`; see ``PlaceMarkReport``.
    case placeMarked(PlaceMarkReport)
    /// `{"class":"CALIBRATION",…}`; see ``CalibrationReport``.
    case calibration(CalibrationReport)
    /// `{"class":"SEARCH","results":[…],"map":…}`; see ``SearchReport``.
    case search(SearchReport)
    /// `{"class":"WHERE","address":…,"street":…,…}`; see ``WhereReport``.
    case whereAmI(WhereReport)
    /// `{"class":"PLAN","distance_m":…,"shape":[…],"turns":[…],…}`; see ``WalkPlanReport``.
    case plan(WalkPlanReport)
    /// `{"class":"ERROR","code":…,"message":…}`.
    case error(ControlError)

    /// The longest reply line a daemon sends, in bytes, newline excluded: `PLACES` with
    /// every place named at full length fits.
    public static let maximumLineLength = 262_144

    /// The reply as one line of compact JSON with sorted keys, newline included.
    ///
    /// Encoding cannot fail for these types (non-finite numbers are written as `null`); should
    /// it ever, the line is an `internal` error saying so rather than nothing.
    public var line: [UInt8] {
        do {
            return JSONWriter.bytes(try JSONValueEncoder().encode(self), layout: .compact) + [UInt8(ascii: "\n")]
        } catch {
            return Array(#"{"class":"ERROR","code":"internal","message":"reply could not be encoded"}"#.utf8) + [
                UInt8(ascii: "\n")
            ]
        }
    }
}

extension ControlReply: Encodable {
    enum CodingKeys: String, CodingKey { case messageClass = "class", destinations, code, message, route, places }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .version(let greeting):
            try greeting.encode(to: encoder)
        case .status(let report):
            try report.encode(to: encoder)
        case .calibration(let report):
            try report.encode(to: encoder)
        case .placeMarked(let report):
            try report.encode(to: encoder)
        case .track(let report):
            try report.encode(to: encoder)
        case .search(let report):
            try report.encode(to: encoder)
        case .whereAmI(let report):
            try report.encode(to: encoder)
        case .plan(let report):
            try report.encode(to: encoder)
        case .route(let report):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageClass.rawValue, forKey: .messageClass)
            try container.encode(report, forKey: .route)
        case .places(let places):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageClass.rawValue, forKey: .messageClass)
            try container.encode(places, forKey: .places)
        case .ok:
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageClass.rawValue, forKey: .messageClass)
        case .recent(let destinations):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageClass.rawValue, forKey: .messageClass)
            try container.encode(destinations, forKey: .destinations)
        case .error(let error):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageClass.rawValue, forKey: .messageClass)
            try container.encode(error.code, forKey: .code)
            try container.encode(error.message, forKey: .message)
        }
    }
}
