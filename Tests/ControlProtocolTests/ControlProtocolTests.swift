import ControlProtocol
import Foundation
import TestSupport
import Testing

@Suite("Control protocol: framing, requests, replies", .timeLimit(.minutes(5)))
struct ControlProtocolTests {
    /// A stream with short lines, an empty line, CRLF, an over-long line and a partial tail.
    private static let stream: [UInt8] = Array(
        "{\"cmd\":\"status\"}\n\nab\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 20) + Array(
            "\nlast\nexact-ten!\npartial".utf8)
    private static let expected: [LineFramer.Frame] = [
        .line(Array("{\"cmd\":\"status\"}".utf8)), .line([]), .line(Array("ab".utf8)), .lineTooLong,
        .line(Array("last".utf8)), .line(Array("exact-ten!".utf8)),
    ]

    @Test("the framer gives the same frames wherever the stream is split, once or at every byte")
    func framesIndependentOfSplits() {
        for split in 0...Self.stream.count {
            var framer = LineFramer(maximumLineLength: 16)
            let frames = framer.append(Self.stream[..<split]) + framer.append(Self.stream[split...])
            #expect(frames == Self.expected, "split at \(split)")
            #expect(framer.hasPartialLine)
        }
        var framer = LineFramer(maximumLineLength: 16)
        let frames = Self.stream.flatMap { framer.append([$0]) }
        #expect(frames == Self.expected)
    }

    @Test("a line of exactly the limit passes; one byte more is reported once, then framing resumes")
    func limitBoundary() {
        var framer = LineFramer()
        // The documented limit: 64 KiB.
        let exact = [UInt8](repeating: 65, count: 65_536)
        #expect(framer.append(exact + [10]) == [.line(exact)])
        let long = [UInt8](repeating: 65, count: 65_537)
        #expect(framer.append(long + Array("\n{}\n".utf8)) == [.lineTooLong, .line(Array("{}".utf8))])
        #expect(!framer.hasPartialLine)
    }

    @Test("requests parse, integers included, and unknown fields are ignored")
    func parsesRequests() throws {
        #expect(try ControlRequest(line: Array(#"{"cmd":"status","extra":[1]}"#.utf8)) == .status)
        #expect(try ControlRequest(line: Array(#"{"cmd":"clear"}"#.utf8)) == .clear)
        #expect(try ControlRequest(line: Array(#"{"cmd":"recent"}"#.utf8)) == .recent)
        #expect(
            try ControlRequest(line: Array(#"{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Eiffel"}"#.utf8))
                == .go(latitude: 48.8584, longitude: 2.2945, name: "Eiffel"))
        #expect(try ControlRequest(line: Array(#"{"cmd":"go","lat":1,"lon":0}"#.utf8)) == .go(latitude: 1, longitude: 0, name: nil))
        #expect(try ControlRequest(line: Array(#"{"cmd":"go","lat":-90,"lon":180,"name":null}"#.utf8)) == .go(latitude: -90, longitude: 180, name: nil))
    }

    @Test(
        "bad requests get the right error code",
        arguments: [
            (#"{"cmd":"go""#, ControlErrorCode.badJSON),
            (#"[1,2]"#, .badJSON),
            (#"{"lat":1}"#, .unknownCommand),
            (#"{"cmd":"fly"}"#, .unknownCommand),
            (#"{"cmd":"go","lat":91,"lon":0}"#, .badArgument),
            (#"{"cmd":"go","lat":0,"lon":-180.5}"#, .badArgument),
                        (#"{"cmd":"go","lat":"48","lon":0}"#, .badArgument),
            (#"{"cmd":"go","lat":true,"lon":0}"#, .badArgument),
            (#"{"cmd":"go","lon":0}"#, .badArgument),
            (#"{"cmd":"go","lat":0,"lon":0,"name":7}"#, .badArgument),
        ])
    func rejectsBadRequests(line: String, code: ControlErrorCode) {
        #expect(throws: ControlError.self) { try ControlRequest(line: Array(line.utf8)) }
        do {
            _ = try ControlRequest(line: Array(line.utf8))
        } catch {
            #expect(error.code == code, "\(line): \(error)")
        }
    }

    @Test("NaN and numbers too large for a Double are refused, as bad JSON or a bad argument",
          arguments: [#"{"cmd":"go","lat":NaN,"lon":0}"#, #"{"cmd":"go","lat":1e999,"lon":0}"#, #"{"cmd":"go","lat":0,"lon":-Infinity}"#])
    func rejectsNonFinite(line: String) {
        do {
            _ = try ControlRequest(line: Array(line.utf8))
            Issue.record("\(line) accepted")
        } catch {
            #expect([.badJSON, .badArgument].contains(error.code))
        }
    }

    @Test("coordinates arrive to the last bit, and every request reads back from its own line")
    func exactNumbersAndRoundTrip() throws {
        // Seeded, so that a coordinate that fails fails again on the next run.
        var generator = SeededGenerator(seed: 90_180)
        for _ in 0..<2000 {
            let latitude = Double.random(in: -90...90, using: &generator)
            let longitude = Double.random(in: -180...180, using: &generator)
            let typed = try ControlRequest(line: Array(#"{"cmd":"go","lat":\#(latitude),"lon":\#(longitude)}"#.utf8))
            #expect(typed == .go(latitude: latitude, longitude: longitude, name: nil), "\(latitude) \(longitude)")
        }
        let requests: [ControlRequest] = [
            .go(latitude: 48.858370000000001, longitude: 2.2944999999999998, name: "Eiffel"), .goRecent(3), .clear, .status,
            .watch(enabled: true, hertz: 0.5), .watch(enabled: false, hertz: 2), .recent, .mute(true), .mute(false),
            .calibrate(.finish), .buzz(.gpsLost), .go(latitude: -0.5, longitude: 1e-7, name: #"Gare d'Austerlitz / "quai" \ 1"#),
        ]
        for request in requests {
            #expect(try ControlRequest(line: request.line.dropLast()) == request, "\(request)")
        }
    }

    @Test("a name may have 100 characters, not 101")
    func nameLimit() throws {
        let ok = String(repeating: "é", count: 100)
        #expect(try ControlRequest(line: Array(#"{"cmd":"go","lat":0,"lon":0,"name":"\#(ok)"}"#.utf8)) == .go(latitude: 0, longitude: 0, name: ok))
        #expect(throws: ControlError.self) {
            try ControlRequest(line: Array(#"{"cmd":"go","lat":0,"lon":0,"name":"\#(ok)e"}"#.utf8))
        }
    }

    @Test("replies are single JSON lines; unknown and non-finite values are null")
    func encodesReplies() throws {
        func object(_ reply: ControlReply) throws -> [String: Any] {
            let line = reply.line
            #expect(line.last == 10)
            #expect(line.dropLast().contains(10) == false)
            return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        }
        let greeting = try object(.version(VersionGreeting()))
        #expect(greeting["class"] as? String == "VERSION")
        #expect(greeting["release"] as? String == Release.version)
        #expect(greeting["proto"] as? Int == 1)
        #expect(try object(.ok)["class"] as? String == "OK")
        let error = try object(.error(ControlError(.lineTooLong, "too long")))
        #expect(error["code"] as? String == "line-too-long")
        #expect(error["message"] as? String == "too long")

        let status = try object(.status(StatusReport(state: "no-fix", bearingDegrees: .nan, distanceMeters: 12.5)))
        #expect(status["class"] as? String == "STATUS")
        #expect(status["state"] as? String == "no-fix")
        #expect(status["fix"] is NSNull)
        #expect(status["destination"] is NSNull)
        #expect(status["bearing"] is NSNull)
        #expect(status["distance"] as? Double == 12.5)
        #expect(status["muted"] is NSNull)
        let heading = try #require(status["heading"] as? [String: Any])
        #expect(Set(heading.keys) == ["true", "magnetic", "declination", "reliable", "bias", "correction", "coasting", "problem"])
        let haptic = try #require(status["haptic"] as? [String: Any])
        #expect(Set(haptic.keys) == ["intensity", "sharpness", "duty", "pattern", "zone", "mode"])
        for key in ["state", "fix", "heading", "destination", "bearing", "distance", "error", "haptic", "calibration", "muted"] {
            #expect(status.keys.contains(key), "STATUS lacks \(key)")
        }

        let recent = try object(.recent([DestinationReport(latitude: 1, longitude: 2, name: "a/b")]))
        let list = try #require(recent["destinations"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["name"] as? String == "a/b")
        #expect(list[0]["lat"] as? Double == 1)
    }
}

/// The requests of issue 19 on the wire: each written as a client writes it reads back as the
/// same request, and wrong arguments are named.
@Suite("Control protocol: routes, places, tracks", .timeLimit(.minutes(5)))
struct RoutePlaceTrackRequestTests {
    static let requests: [ControlRequest] = [
        .goPlace("Bakery"), .route(.show), .route(.next), .route(.previous), .route(.reverse), .route(.clear),
        .route(.load(name: "Loop", waypoints: [
            DestinationReport(latitude: 1, longitude: 2, name: "A", radiusMeters: 10), DestinationReport(latitude: -3, longitude: 4),
        ])),
        .place(.list), .place(.add(DestinationReport(latitude: 48.86, longitude: 2.29, name: "Bakery", radiusMeters: 8), replacing: true)),
        .place(.mark(name: "Car", seconds: 5, radiusMeters: nil, replacing: false)), .place(.rename("Car", to: "Old car")),
        .place(.remove("Car")), .track(.export(since: 1_782_950_400, until: nil, cursor: "0:42")), .track(.clear),
        .back(minutes: 30), .back(minutes: nil), .removeRecent(2), .removeRecentPlace(latitude: 48.8584, longitude: 2.2945),
    ]

    @Test("each new request round-trips through its line", arguments: requests)
    func roundTrip(request: ControlRequest) throws {
        #expect(try ControlRequest(line: request.line.dropLast()) == request)
    }

    static func refusal(_ line: String) -> String? {
        do throws(ControlError) {
            _ = try ControlRequest(line: Array(line.utf8))
            return nil
        } catch {
            return "\(error.code.rawValue): \(error.message)"
        }
    }

    @Test("wrong arguments are named: a radius out of range, a waypoint without lon, 1001 waypoints, both place and lat")
    func refusals() {
        #expect(Self.refusal(#"{"cmd":"place","action":"add","name":"A","lat":1,"lon":2,"radius":1}"#) == "bad-argument: radius 1.0 is outside [2, 1000]")
        #expect(Self.refusal(#"{"cmd":"place","action":"add","lat":1,"lon":2}"#) == "bad-argument: name is required")
        #expect(Self.refusal(#"{"cmd":"recent","action":"remove","index":1,"lat":1,"lon":2}"#)
            == "bad-argument: give either index or lat and lon, not both")
        #expect(Self.refusal(#"{"cmd":"recent","action":"remove","lat":1}"#) == "bad-argument: lon is required")
        #expect(Self.refusal(#"{"cmd":"route","action":"load","waypoints":[{"lat":1}]}"#) == "bad-argument: waypoints[0].lon is required")
        let many = "[" + Array(repeating: #"{"lat":1,"lon":2}"#, count: 1001).joined(separator: ",") + "]"
        #expect(Self.refusal(#"{"cmd":"route","action":"load","waypoints":\#(many)}"#) == "bad-argument: a route needs 1 to 1000 waypoints; this one has 1001")
        #expect(Self.refusal(#"{"cmd":"go","place":"A","lat":1,"lon":2}"#) == "bad-argument: give one of place, recent, or lat and lon")
        #expect(Self.refusal(#"{"cmd":"route","action":"fly"}"#) == "bad-argument: action must be one of: show, load, plan, next, previous, reverse, clear")
        #expect(Self.refusal(#"{"cmd":"back","minutes":0}"#) == "bad-argument: minutes 0.0 is outside [1, 1440]")
        // A 1000-waypoint route fits one request line.
        let route = ControlRequest.route(.load(name: nil, waypoints: (0..<1000).map {
            DestinationReport(latitude: 48.8 + Double($0) * 1e-4, longitude: 2.29 + Double($0) * 1e-4)
        }))
        #expect(route.line.count <= LineFramer.defaultMaximumLineLength)
    }
}

/// The reply classes are one table (`ControlReply.MessageClass`): what the encoder writes is
/// what the decoder reads and what clients name, for every class.
@Suite("Control protocol: the reply classes", .timeLimit(.minutes(5)))
struct ReplyClassTests {
    @Test("every example reply is written with its class, read back as the same reply, and every class has an example")
    func oneTable() throws {
        var seen: Set<ControlReply.MessageClass> = []
        for reply in ExampleReplies.common {
            let line = reply.line.dropLast()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(object["class"] as? String == reply.messageClass.rawValue, "\(reply)")
            #expect(try ControlReply(line: line).messageClass == reply.messageClass)
            seen.insert(reply.messageClass)
        }
        #expect(seen == Set(ControlReply.MessageClass.allCases), "no example of \(Set(ControlReply.MessageClass.allCases).subtracting(seen))")
    }
}
