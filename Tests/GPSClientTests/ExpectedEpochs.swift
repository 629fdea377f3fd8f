import Foundation
import TestSupport

/// What gpsd's expected output (a `.chk` file) says a client should see, read with Foundation's
/// JSON parser independently of libgps.
struct ExpectedEpochs {
    /// One fix epoch: the ISO time as gpsd printed it, and the position.
    struct Epoch: Equatable, CustomStringConvertible {
        let time: String
        let latitude: Double
        let longitude: Double
        var description: String { "\(time) \(latitude) \(longitude)" }
    }

    /// Distinct timed fix epochs (mode ≥ 2), in order.
    var epochs: [Epoch] = []
    /// Positions of fixes that have no time yet, each distinct from the one before.
    var timelessPositions: [[Double]] = []
    /// How many times the receiver goes from a fix (or the start) to no fix.
    var losses = 0

    /// Reads `Tests/GPSClientTests/Data/<log>.chk`, or the gpsd 3.25 variant.
    init(log: String, apiMajor: Int) throws {
        let directory = apiMajor >= 14 ? "Tests/GPSClientTests/Data/chk-3.25/" : "Tests/GPSClientTests/Data/"
        var hadFix: Bool?
        for line in try TestData.text(directory + log + ".chk").split(whereSeparator: \.isNewline)
        where line.hasPrefix("{\"class\":\"TPV\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let mode = object["mode"] as! Int
            guard mode >= 2, let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double else {
                if hadFix != false { losses += 1 }
                hadFix = false
                continue
            }
            hadFix = true
            if let time = object["time"] as? String {
                if epochs.last?.time != time { epochs.append(Epoch(time: time, latitude: latitude, longitude: longitude)) }
            } else if timelessPositions.last != [latitude, longitude] {
                timelessPositions.append([latitude, longitude])
            }
        }
    }

    /// The logs of reference/gpsd.md and what each is for.
    static let logs = [
        "haicom-305N.log", "bu303-moving.log", "tn200.log", "quectel.log", "motorola-t805.log",
        "ublox-lea-4h.log", "mt3339.log", "neo-m8n.log",
    ]
}
