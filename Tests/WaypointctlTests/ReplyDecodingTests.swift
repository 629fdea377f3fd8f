import ControlProtocol
import Foundation
import Testing
import TestSupport

/// Every reply the daemon sends reads back as the same value, whatever a newer daemon adds and
/// wherever it writes null.
@Suite("Reply decoding", .timeLimit(.minutes(5)))
struct ReplyDecodingTests {
    /// The shared full status, under the name the summary tests know it by; ``replies`` already
    /// has it through ``ExampleReplies/common``.
    static let fullStatus = ExampleReplies.guidingStatus

    static let replies: [ControlReply] =
        [
            .status(
                StatusReport(
                    state: "no-fix",
                    fix: .init(time: nil, mode: 1, latitude: nil, longitude: nil, horizontalErrorMeters: nil))),
        ] + ExampleReplies.common

    @Test("every reply round-trips: encode, then decode, gives the same value", arguments: replies)
    func roundTrip(_ reply: ControlReply) throws {
        let line = reply.line
        #expect(line.last == UInt8(ascii: "\n"))
        let decoded = try ControlReply(line: line.dropLast())
        #expect(decoded == reply, "\(String(decoding: line, as: UTF8.self))")
    }

    @Test("unknown fields are ignored, at the top and inside objects")
    func unknownFields() throws {
        let line = #"""
            {"class":"STATUS","state":"guiding","future":{"a":[1,2]},"fix":{"mode":3,"lat":1,"lon":2,"eph":3,"time":null,"hdop":0.9},
            "heading":{"true":10,"magnetic":9,"declination":1,"reliable":true,"source":"imu"},"destination":{"lat":1.5,"lon":2.5,"name":"x","icon":"pin"},
            "bearing":45,"distance":100,"error":-5,"haptic":{"intensity":0.5,"sharpness":0.1,"duty":0.4,"pattern":null,"frequency":25000},
            "calibration":"stored","muted":true,"battery":0.8}
            """#.replacingOccurrences(of: "\n", with: "")
        let reply = try ControlReply(line: Array(line.utf8))
        let expected = StatusReport(
            state: "guiding", fix: .init(time: nil, mode: 3, latitude: 1, longitude: 2, horizontalErrorMeters: 3),
            heading: .init(trueDegrees: 10, magneticDegrees: 9, declinationDegrees: 1, isReliable: true),
            destination: .init(latitude: 1.5, longitude: 2.5, name: "x"), bearingDegrees: 45, distanceMeters: 100,
            errorDegrees: -5, haptic: .init(intensity: 0.5, sharpness: 0.1, duty: 0.4), calibration: "stored",
            isMuted: true)
        #expect(reply == .status(expected))
        #expect(try ControlReply(line: Array(#"{"class":"OK","extra":1}"#.utf8)) == .ok)
        #expect(
            try ControlReply(line: Array(#"{"proto":1,"release":"0.2.0","class":"VERSION","features":["x"]}"#.utf8))
                == .version(VersionGreeting(release: "0.2.0", protocolVersion: 1)))
    }

    @Test("null and absent fields read as unknown; only the essentials are required")
    func nulls() throws {
        let sparse =
            #"{"class":"STATUS","state":"idle","fix":null,"heading":null,"destination":null,"bearing":null,"distance":null,"error":null,"haptic":null,"calibration":null,"muted":null}"#
        #expect(try ControlReply(line: Array(sparse.utf8)) == .status(StatusReport(state: "idle")))
        #expect(
            try ControlReply(line: Array(#"{"class":"STATUS","state":"idle"}"#.utf8))
                == .status(StatusReport(state: "idle")))
        let nullFix =
            #"{"class":"STATUS","state":"no-fix","fix":{"time":null,"mode":null,"lat":null,"lon":null,"eph":null}}"#
        #expect(
            try ControlReply(line: Array(nullFix.utf8))
                == .status(
                    StatusReport(
                        state: "no-fix",
                        fix: .init(time: nil, mode: 1, latitude: nil, longitude: nil, horizontalErrorMeters: nil))))
        #expect(try ControlReply(line: Array(#"{"class":"RECENT","destinations":null}"#.utf8)) == .recent([]))
        #expect(
            try ControlReply(
                line: Array(
                    #"{"class":"CALIBRATION","state":"none","samples":null,"octants":null,"quality":{"fitError":null}}"#
                        .utf8))
                == .calibration(CalibrationReport(state: "none", quality: .init())))
        #expect(
            try ControlReply(line: Array(#"{"class":"ERROR","code":"refused"}"#.utf8))
                == .error(ControlError(.refused, "")))
    }

    @Test("an ERROR code from a newer daemon keeps its name in the message")
    func unknownErrorCode() throws {
        let reply = try ControlReply(line: Array(#"{"class":"ERROR","code":"battery-low","message":"charge me"}"#.utf8))
        #expect(reply == .error(ControlError(.internal, "[battery-low] charge me")))
    }

    @Test(
        "lines that are not replies are errors naming the problem",
        arguments: [
            ("", ReplyDecodingError.notJSONObject(detail: "not valid JSON")),
            ("not json", .notJSONObject(detail: "not valid JSON")),
            ("[1,2]", .notJSONObject(detail: "expected an object")),
            (#"{"state":"idle"}"#, .missingClass),
            (#"{"class":7}"#, .notJSONObject(detail: "expected a string")),
            (#"{"class":"WEATHER"}"#, .unknownClass("WEATHER")),
            (#"{"class":"STATUS"}"#, .badField(messageClass: "STATUS", field: "state", detail: "missing")),
            (
                #"{"class":"STATUS","state":"idle","fix":{"mode":"3D"}}"#,
                .badField(messageClass: "STATUS", field: "fix.mode", detail: "expected a whole number")
            ),
            (
                #"{"class":"STATUS","state":"idle","muted":"no"}"#,
                .badField(messageClass: "STATUS", field: "muted", detail: "expected true or false")
            ),
            (
                #"{"class":"RECENT","destinations":[{"lat":null,"lon":2}]}"#,
                .badField(messageClass: "RECENT", field: "destinations.0.lat", detail: "expected a number, found null")
            ),
            (
                #"{"class":"VERSION","release":"0.1.0"}"#,
                .badField(messageClass: "VERSION", field: "proto", detail: "missing")
            ),
            (#"{"class":"ERROR","message":"x"}"#, .badField(messageClass: "ERROR", field: "code", detail: "missing")),
        ])
    func malformed(_ line: String, _ expected: ReplyDecodingError) {
        #expect(throws: expected) { try ControlReply(line: Array(line.utf8)) }
    }
}
