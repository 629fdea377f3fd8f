import ControlProtocol

extension ControlReply {
    /// The wire `"class"` of this reply, for messages.
    var className: String {
        switch self {
        case .version: "VERSION"
        case .ok: "OK"
        case .status: "STATUS"
        case .recent: "RECENT"
        case .calibration: "CALIBRATION"
        case .route: "ROUTE"
        case .places: "PLACES"
        case .placeMarked: "PLACE"
        case .track: "TRACK"
        case .search: "SEARCH"
        case .whereAmI: "WHERE"
        case .error: "ERROR"
        }
    }
}
