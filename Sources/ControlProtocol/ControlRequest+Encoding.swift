extension ControlRequest {
    /// The request as one line of compact JSON with sorted keys, newline included: what a
    /// client sends. ``init(line:)`` reads it back as the same request.
    ///
    /// - Precondition: Every number in the request is finite, as in every request that
    ///   ``init(line:)`` makes: JSON has no NaN or infinity.
    public var line: [UInt8] {
        var fields = RequestFields(cmd: commandName)
        switch self {
        case .go(let latitude, let longitude, let name):
            fields.lat = latitude
            fields.lon = longitude
            fields.name = name
        case .goRecent(let index): fields.recent = index
        case .clear, .status, .recent: break
        case .watch(let enabled, let hertz):
            fields.enable = enabled
            fields.hz = hertz
        case .mute(let on): fields.on = on
        case .calibrate(let action): fields.action = action.rawValue
        case .buzz(let pattern): fields.pattern = pattern.rawValue
        }
        do {
            return JSONWriter.bytes(try JSONValueEncoder().encode(fields), layout: .compact) + [UInt8(ascii: "\n")]
        } catch {
            // Strings, booleans and small whole numbers always encode; only a non-finite number fails.
            preconditionFailure("a control request must hold finite numbers to be sent: \(self)")
        }
    }

    /// The request's `"cmd"`: what it is called on the wire and in messages.
    public var commandName: String {
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

/// Every field a request may have, named as on the wire; the encoder leaves out the nil ones.
private struct RequestFields: Encodable {
    var cmd: String
    var lat: Double?
    var lon: Double?
    var name: String?
    var recent: Int?
    var enable: Bool?
    var hz: Double?
    var on: Bool?
    var action: String?
    var pattern: String?
}
