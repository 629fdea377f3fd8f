import ControlProtocol

extension ControlRequest {
    /// The request's `"cmd"`, for messages.
    var commandName: String {
        switch self {
        case .go, .goRecent: "go"
        case .clear: "clear"
        case .status: "status"
        case .watch: "watch"
        case .recent: "recent"
        case .mute: "mute"
        case .calibrate: "calibrate"
        case .buzz: "buzz"
        }
    }
}
