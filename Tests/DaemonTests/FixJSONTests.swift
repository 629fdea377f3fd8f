import Daemon
import Foundation
import Geodesy
import Testing

@Suite("Fix as JSON", .timeLimit(.minutes(5)))
struct FixJSONTests {
    @Test("every documented field, with null for what is unknown, parses back")
    func fields() throws {
        var fix = Fix(
            mode: .threeDimensional, time: UTCTime(seconds: 1_777_636_800, nanoseconds: 500_000_000),
            coordinate: Coordinate(uncheckedLatitudeDegrees: -27.210911667, longitudeDegrees: 153.05225))
        fix.altitudeHAEMeters = 45.2
        fix.speedMetersPerSecond = 0.993
        fix.trackDegrees = 133.96
        fix.horizontalErrorMeters = 400.9
        let text = FixJSON.encode(fix)
        #expect(!text.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-05-01T12:00:00.500Z")
        #expect(object["mode"] as? Int == 3)
        #expect(object["lat"] as? Double == -27.210911667)
        #expect(object["lon"] as? Double == 153.05225)
        #expect(object["altHAE"] as? Double == 45.2)
        #expect(object["altMSL"] is NSNull)
        #expect(object["speed"] as? Double == 0.993)
        #expect(object["track"] as? Double == 133.96)
        #expect(object["eph"] as? Double == 400.9)
        #expect(object["epd"] is NSNull)

        let lost = FixJSON.encode(Fix(mode: .noFix))
        #expect(lost == #"{"time":null,"mode":1,"lat":null,"lon":null,"altHAE":null,"altMSL":null,"speed":null,"track":null,"eph":null,"epd":null}"#)
    }
}
