import Foundation

extension ControlRequest {
    /// The request as one line of compact JSON with sorted keys, newline included: what a
    /// client sends. ``init(line:)`` reads it back as the same request.
    public var line: [UInt8] {
        var object: [String: Any]
        switch self {
        case .go(let latitude, let longitude, let name):
            object = ["cmd": "go", "lat": latitude, "lon": longitude]
            if let name { object["name"] = name }
        case .goRecent(let index): object = ["cmd": "go", "recent": index]
        case .clear: object = ["cmd": "clear"]
        case .status: object = ["cmd": "status"]
        case .recent: object = ["cmd": "recent"]
        case .watch(let enabled, let hertz): object = ["cmd": "watch", "enable": enabled, "hz": hertz]
        case .mute(let on): object = ["cmd": "mute", "on": on]
        case .calibrate(let action): object = ["cmd": "calibrate", "action": action.rawValue]
        case .buzz(let pattern): object = ["cmd": "buzz", "pattern": pattern.rawValue]
        }
        // Every value above is a finite number, a string or a boolean: serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
