extension ControlReply {
    /// Every reply's `"class"` on the wire: the one table the encoder writes, the decoder reads
    /// and the clients name in their messages.
    public enum MessageClass: String, Sendable, CaseIterable {
        case version = "VERSION"
        case ok = "OK"
        case status = "STATUS"
        case recent = "RECENT"
        case route = "ROUTE"
        case track = "TRACK"
        case places = "PLACES"
        case placeMarked = "PLACE"
        case calibration = "CALIBRATION"
        case search = "SEARCH"
        case whereAmI = "WHERE"
        case plan = "PLAN"
        case error = "ERROR"
    }

    /// This reply's class.
    public var messageClass: MessageClass {
        switch self {
        case .version: .version
        case .ok: .ok
        case .status: .status
        case .recent: .recent
        case .route: .route
        case .track: .track
        case .places: .places
        case .placeMarked: .placeMarked
        case .calibration: .calibration
        case .search: .search
        case .whereAmI: .whereAmI
        case .plan: .plan
        case .error: .error
        }
    }
}
