import ControlProtocol
import Foundation
import Geodesy
import Heading
import TestSupport
import Testing

@testable import Daemon
import Core
import TextFormats

/// What decoding gave: the value, or the error reduced to what messages are made from (the case,
/// the type and the coding path, indices as `[n]`).
private enum Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
    case value(Value)
    case typeMismatch(String, path: String)
    case valueNotFound(String, path: String)
    case keyNotFound(String, path: String)
    case dataCorrupted(path: String)
    case otherError(String)

    init(_ decode: () throws -> Value) {
        do {
            self = .value(try decode())
        } catch let error as DecodingError {
            func path(_ context: DecodingError.Context) -> String {
                context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(
                    separator: ".")
            }
            switch error {
            case .typeMismatch(let type, let context): self = .typeMismatch("\(type)", path: path(context))
            case .valueNotFound(let type, let context): self = .valueNotFound("\(type)", path: path(context))
            case .keyNotFound(let key, let context): self = .keyNotFound(key.stringValue, path: path(context))
            case .dataCorrupted(let context): self = .dataCorrupted(path: path(context))
            @unknown default: self = .otherError("\(error)")
            }
        } catch {
            self = .otherError("\(error)")
        }
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .typeMismatch(let type, let path): "typeMismatch(\(type)) at \(path)"
        case .valueNotFound(let type, let path): "valueNotFound(\(type)) at \(path)"
        case .keyNotFound(let key, let path): "keyNotFound(\(key)) at \(path)"
        case .dataCorrupted(let path): "dataCorrupted at \(path)"
        case .otherError(let text): "other error \(text)"
        }
    }
}

/// Decodes `text` with ours (parser plus ``JSONValueDecoder``) and with Foundation's
/// `JSONDecoder`, and expects the same outcome.
///
/// For a number that does not fit its field, pass `corruptedAt`: `JSONDecoder` leaves the path
/// out of "Parsed JSON number <2.5> does not fit in Int." (which made the messages call the
/// whole text "not valid JSON"), where ours names the field. Then only the kind of error is
/// Foundation's to check, and the path ours must give is the one pinned here.
private func expectSameDecoding<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String, corruptedAt expectedPath: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let value = try JSONParser.parse(Array(text.utf8))
    let ours = Outcome { try JSONValueDecoder().decode(type, from: value) }
    let foundation = Outcome { try JSONDecoder().decode(type, from: Data(text.utf8)) }
    guard let expectedPath else {
        #expect(ours == foundation, "\(text)", sourceLocation: sourceLocation)
        return
    }
    switch foundation {
    case .dataCorrupted(let path):
        // Should Foundation ever name the field, it must name the same one.
        #expect(path.isEmpty || path == expectedPath, "\(text): JSONDecoder's path", sourceLocation: sourceLocation)
    default:
        Issue.record("\(text): JSONDecoder gave \(foundation), not dataCorrupted", sourceLocation: sourceLocation)
    }
    #expect(ours == .dataCorrupted(path: expectedPath), "\(text)", sourceLocation: sourceLocation)
}

/// A type that uses every kind of container, nested, with the optionals and collections the wire
/// types use.
private struct Everything: Codable, Equatable {
    enum Mood: String, Codable { case calm, alert }
    struct Inner: Codable, Equatable {
        var label: String
        var values: [Double]
        var flags: [Bool]?
    }

    var count: Int
    var small: UInt8
    var big: Int64
    var ratio: Double
    var name: String?
    var nothing: String?
    var mood: Mood
    var inner: Inner
    var rows: [[Double]]
    var table: [String: Int]
    var list: [Inner]
    var optionals: [Double?]
}

private let everything = Everything(
    count: -42, small: 255, big: 1 << 52, ratio: 0.1, name: "Opéra \"House\" / Sydney\n", nothing: nil, mood: .alert,
    inner: .init(label: "in", values: [1, -0.0, 1e-05], flags: [true, false]),
    rows: [[1, 0, 0], [], [0.5, 2.5e300]], table: ["b": 2, "a": 1, "é": 3],
    list: [.init(label: "x", values: [], flags: nil)], optionals: [1, nil, 3])

@Suite("JSON encoder and decoder: what JSONEncoder and JSONDecoder did", .timeLimit(.minutes(5)))
struct JSONCodingTests {
    static let replies: [ControlReply] =
        [
            .status(
                StatusReport(
                    state: "guiding",
                    fix: .init(
                        time: "2026-05-01T12:00:00.5Z", mode: 3, latitude: 48.8556, longitude: 2.2986,
                        horizontalErrorMeters: 4.8),
                    heading: .init(
                        trueDegrees: 292.4, magneticDegrees: 290.3, declinationDegrees: 2.09, isReliable: true,
                        biasDegrees: -0.0, correction: "coasting", coastingSeconds: 12.25, problem: nil),
                    destination: .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower / Tour"),
                    bearingDegrees: 316.03, distanceMeters: 1e21, errorDegrees: .nan,
                    haptic: .init(intensity: 0.55, sharpness: 1e-05, duty: .infinity, pattern: "accepted"),
                    calibration: "stored", isMuted: false, problems: ["no \"gps\"", "tab\there"])),
        ] + ExampleReplies.common

    @Test("every reply is the line JSONEncoder wrote", arguments: replies)
    func replyLines(_ reply: ControlReply) throws {
        #expect(reply.line == (try FoundationOracle.bytes(reply)) + [UInt8(ascii: "\n")])
    }

    @Test("random status replies are the lines JSONEncoder wrote")
    func randomStatusLines() throws {
        var random = RandomJSON(generator: SeededGenerator(seed: 11))
        func maybe(_ random: inout RandomJSON) -> Double? {
            switch Int.random(in: 0..<6, using: &random.generator) {
            case 0: nil
            case 1: .nan
            default: random.number()
            }
        }
        for _ in 0..<500 {
            let report = StatusReport(
                state: random.string(),
                fix: .init(
                    time: random.string(), mode: Int.random(in: 0...3, using: &random.generator),
                    latitude: maybe(&random),
                    longitude: maybe(&random), horizontalErrorMeters: maybe(&random)),
                heading: .init(
                    trueDegrees: maybe(&random), magneticDegrees: maybe(&random), declinationDegrees: maybe(&random),
                    isReliable: Bool.random(using: &random.generator), biasDegrees: maybe(&random),
                    correction: random.string(), coastingSeconds: maybe(&random), problem: random.string()),
                destination: .init(latitude: random.number(), longitude: random.number(), name: random.string()),
                bearingDegrees: maybe(&random), distanceMeters: maybe(&random), errorDegrees: maybe(&random),
                haptic: .init(intensity: maybe(&random), sharpness: maybe(&random), duty: maybe(&random)),
                calibration: random.string(), isMuted: Bool.random(using: &random.generator),
                problems: [random.string(), random.string()])
            let reply = ControlReply.status(report)
            #expect(reply.line == (try FoundationOracle.bytes(reply)) + [UInt8(ascii: "\n")])
        }
    }

    @Test("request lines are compact, sorted, and read back as the same request")
    func requestLines() throws {
        #expect(
            String(
                decoding: ControlRequest.go(latitude: 48.8584, longitude: 2.2945, name: "Tour / Eiffel").line,
                as: UTF8.self)
                == #"{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Tour / Eiffel"}"# + "\n")
        #expect(
            String(decoding: ControlRequest.watch(enabled: true, hertz: 2).line, as: UTF8.self)
                == #"{"cmd":"watch","enable":true,"hz":2}"# + "\n")
        #expect(String(decoding: ControlRequest.goRecent(3).line, as: UTF8.self) == #"{"cmd":"go","recent":3}"# + "\n")
        let requests: [ControlRequest] = [
            .go(latitude: -33.8568, longitude: 151.2153, name: nil), .goRecent(1), .clear, .status, .recent,
            .watch(enabled: false, hertz: 0.1), .mute(true), .calibrate(.start), .buzz(.test),
        ]
        for request in requests {
            #expect(try ControlRequest(line: request.line.dropLast()) == request)
        }
    }

    @Test("a generic type with every kind of container: the bytes JSONEncoder wrote, and read back")
    func everythingRoundTrips() throws {
        let value = try JSONValueEncoder().encode(everything)
        let compact = JSONWriter.bytes(value, layout: .compact)
        #expect(compact == (try FoundationOracle.bytes(everything)))
        #expect(JSONWriter.bytes(value, layout: .pretty) == (try FoundationOracle.bytes(everything, pretty: true)))
        #expect(try JSONValueDecoder().decode(Everything.self, from: JSONParser.parse(compact)) == everything)
        #expect(try JSONDecoder().decode(Everything.self, from: Data(compact)) == everything)
    }

    @Test("reply types decode as JSONDecoder decodes them, mistakes included")
    func replyTypesDecodeLikeFoundation() throws {
        let statuses = [
            #"{"state":"idle"}"#, #"{}"#, #"[]"#, #"null"#, #"{"state":null}"#, #"{"state":7}"#,
            #"{"state":"x","fix":{"mode":3,"lat":1.5,"lon":-0,"eph":null,"time":"t"}}"#,
            #"{"state":"x","fix":{"mode":"3D"}}"#, #"{"state":"x","fix":{"mode":2.0}}"#,
            #"{"state":"x","fix":[]}"#, #"{"state":"x","fix":7}"#,
            #"{"state":"x","heading":{"reliable":1}}"#, #"{"state":"x","heading":{"true":"north"}}"#,
            #"{"state":"x","problems":["a",null]}"#, #"{"state":"x","problems":["a",2]}"#,
            #"{"state":"x","problems":{}}"#,
            #"{"state":"x","destination":{"lat":1}}"#, #"{"state":"x","destination":{"lat":1,"lon":null}}"#,
            #"{"state":"x","muted":"no","extra":[1,{"a":null}]}"#, #"{"state":"x","haptic":{"pattern":false}}"#,
        ]
        for text in statuses { try expectSameDecoding(StatusReport.self, text) }
        for text in [#"{"state":"x","fix":{"mode":2.5}}"#, #"{"state":"x","fix":{"mode":1e300}}"#] {
            try expectSameDecoding(StatusReport.self, text, corruptedAt: "fix.mode")
        }
        let calibrations = [
            #"{"state":"running","samples":412,"octants":[1,2,3]}"#, #"{"state":"s","octants":[1,null]}"#,
            #"{"state":"s","octants":"1"}"#,
            #"{"state":"s","quality":{"samples":"many"}}"#, #"{"state":"s","quality":{"fitError":true}}"#,
            #"{"state":"s","quality":[]}"#,
        ]
        for text in calibrations { try expectSameDecoding(CalibrationReport.self, text) }
        for text in [#"{"state":"s","octants":[1,2.5]}"#, #"{"state":"s","octants":[1,-1e20]}"#] {
            try expectSameDecoding(CalibrationReport.self, text, corruptedAt: "octants.[1]")
        }
        let lists = [
            #"[{"lat":1,"lon":2},{"lat":3,"lon":4,"name":"n"}]"#, #"[{"lat":1,"lon":2},{"lat":3}]"#,
            #"[{"lat":1,"lon":2},null]"#, #"[[1,2]]"#, #"{"lat":1,"lon":2}"#, #"[]"#,
        ]
        for text in lists { try expectSameDecoding([DestinationReport].self, text) }
        for text in [#"{"proto":1}"#, #"{"proto":-1,"release":"r"}"#, #"{"release":"r"}"#] {
            try expectSameDecoding(VersionGreeting.self, text)
        }
        try expectSameDecoding(VersionGreeting.self, #"{"proto":1.5}"#, corruptedAt: "proto")
        for text in [#"[[1,2],[3]]"#, #"[[1,null]]"#, #"[[1],2]"#, #"[null]"#] {
            try expectSameDecoding([[Double]].self, text)
        }
        for text in [#"{"a":1,"b":2}"#, #"{"a":"1"}"#, #"{"a":null}"#, #"[1]"#] {
            try expectSameDecoding([String: Int].self, text)
        }
        for text in [#"255"#, #"256"#, #"-1"#, #"1.0"#, #"1e2"#, #""1""#, #"true"#, #"null"#] {
            try expectSameDecoding(UInt8.self, text)
        }
        for text in [#"9007199254740992"#, #"-9007199254740992"#, #"1e18"#, #"1e19"#] {
            try expectSameDecoding(Int64.self, text)
        }
    }

    @Test("the decoding errors messages are made from: case, type and path")
    func decodingErrors() throws {
        func outcome<T: Decodable & Equatable>(_ type: T.Type, _ text: String) throws -> Outcome<T> {
            let value = try JSONParser.parse(Array(text.utf8))
            return Outcome { try JSONValueDecoder().decode(type, from: value) }
        }
        #expect(
            try outcome(StatusReport.self, #"{"state":"x","fix":{"mode":"3D"}}"#)
                == .typeMismatch("Int", path: "fix.mode"))
        #expect(try outcome(StatusReport.self, #"{"state":null}"#) == .valueNotFound("String", path: "state"))
        #expect(try outcome(StatusReport.self, #"{"fix":{}}"#) == .keyNotFound("state", path: ""))
        #expect(
            try outcome([DestinationReport].self, #"[{"lat":1,"lon":2},{"lat":3}]"#) == .keyNotFound("lon", path: "[1]")
        )
        #expect(try outcome([[Double]].self, #"[[1],[2,null]]"#) == .valueNotFound("Double", path: "[1].[1]"))
        #expect(try outcome(StatusReport.self, #"[1,2]"#) == .typeMismatch("Dictionary<String, Any>", path: ""))
        #expect(
            try outcome(StatusReport.self, #"{"state":"x","problems":{}}"#)
                == .typeMismatch("Array<Any>", path: "problems"))
        #expect(
            try outcome(CalibrationReport.self, #"{"state":"s","octants":[1,2.5]}"#)
                == .dataCorrupted(path: "octants.[1]"))
        #expect(try outcome(Float.self, "1.5") == .typeMismatch("Float", path: ""))
        struct Pair: Decodable, Equatable {
            var first: Int
            var second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        #expect(
            try outcome(Pair.self, "[1,2]") == .value(try JSONDecoder().decode(Pair.self, from: Data("[1,2]".utf8))))
        #expect(try outcome(Pair.self, "[1]") == .valueNotFound("Int", path: "[1]"))
        #expect(
            try outcome(Pair.self, "[1]")
                == Outcome<Pair> { try JSONDecoder().decode(Pair.self, from: Data("[1]".utf8)) })
    }

    @Test("what JSON cannot hold is an EncodingError with its path, never a crash")
    func encodingErrors() {
        func path(of error: any Error) -> String? {
            guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else { return nil }
            return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        for value in [Double.nan, .infinity, -.infinity] {
            let error = #expect(throws: EncodingError.self) {
                try JSONValueEncoder().encode(Holder(inner: [1, value]))
            }
            #expect(error.flatMap { path(of: $0) } == "inner.[1]")
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(Holder(inner: [1, value])) }
        }
        let big = #expect(throws: EncodingError.self) {
            try JSONValueEncoder().encode(Holder(inner: [Int64(1) << 53 + 1]))
        }
        #expect(big.flatMap { path(of: $0) } == "inner.[0]")
        #expect(throws: Never.self) {
            try JSONValueEncoder().encode(Holder(inner: [Int64(1) << 53, -(Int64(1) << 53)]))
        }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Holder(inner: [Float(0.1)])) }

        /// Asks for a keyed container, then a single value: JSONEncoder traps; ours throws.
        struct Confused: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: JSONCodingKey.self)
                try keyed.encode(1, forKey: JSONCodingKey(stringValue: "a"))
                var single = encoder.singleValueContainer()
                try single.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Confused()) }
    }

    /// What reading one state file into a fresh state gives.
    static func decoded(_ file: StateFile, _ bytes: [UInt8]) throws -> PersistentState {
        var state = PersistentState.initial
        try StateFileCoding.decode(file, bytes, into: &state)
        return state
    }

    @Test("state files are the bytes JSONEncoder wrote: pretty, sorted, final newline")
    func stateFiles() throws {
        let destination = SavedDestination(
            coordinate: Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945),
            name: "Tour / \"Eiffel\"")
        let destinationFile = try StateFileCoding.encode(.target, from: PersistentState(destination: destination))
        #expect(
            String(decoding: destinationFile, as: UTF8.self) == """
                {
                  "destination" : {
                    "lat" : 48.8584,
                    "lon" : 2.2945,
                    "name" : "Tour / \\"Eiffel\\""
                  },
                  "route" : null,
                  "version" : 1
                }

                """)
        #expect(
            String(decoding: try StateFileCoding.encode(.target, from: PersistentState(destination: nil)), as: UTF8.self)
                == "{\n  \"destination\" : null,\n  \"route\" : null,\n  \"version\" : 1\n}\n")
        #expect(
            String(decoding: try StateFileCoding.encode(.mute, from: PersistentState(muted: true)), as: UTF8.self)
                == "{\n  \"muted\" : true,\n  \"version\" : 1\n}\n")
        #expect(
            String(decoding: try StateFileCoding.encode(.recent, from: PersistentState(recent: RecentDestinations())), as: UTF8.self)
                == "{\n  \"recent\" : [\n\n  ],\n  \"version\" : 1\n}\n")
        let recent = RecentDestinations([
            destination,
            SavedDestination(
                coordinate: Coordinate(uncheckedLatitudeDegrees: -33.8568, longitudeDegrees: 151.2153), name: nil),
        ])
        let calibration = SavedCalibration(
            calibration: MagneticCalibration(
                offsetMicrotesla: Vector3(12.5, -3.25, 0.1),
                matrix: Matrix3(Vector3(1.02, 0.01, 0), Vector3(0.01, 0.98, 0), Vector3(0, 0, 1))),
            createdAt: try #require(UTCTime(iso8601: "2026-05-01T12:00:00.000Z")),
            quality: .init(
                fitErrorPercent: 1.2, coveragePercent: 85, fittedFieldMicrotesla: nil, referenceFieldMicrotesla: 47.9,
                sampleCount: 412))
        let files = [
            destinationFile, try StateFileCoding.encode(.recent, from: PersistentState(recent: recent)),
            try StateFileCoding.encode(.calibration, from: PersistentState(calibration: calibration)),
            try StateFileCoding.encode(.calibration, from: PersistentState(calibration: nil)),
        ]
        for file in files {
            // The layout and numbers against JSONEncoder's, for the very values in the file.
            #expect(
                file == (try FoundationOracle.bytes(of: JSONParser.parse(file), pretty: true)) + [UInt8(ascii: "\n")])
        }
        #expect(try Self.decoded(.target, destinationFile).destination == destination)
        #expect(try Self.decoded(.recent, files[1]).recent == recent)
        #expect(try Self.decoded(.calibration, files[2]).calibration == calibration)
        #expect(try Self.decoded(.calibration, files[3]).calibration == nil)
        // The quality figure that is unknown is left out, not written as null.
        #expect(!String(decoding: files[2], as: UTF8.self).contains("fittedFieldMicrotesla"))
    }
}

/// `{"inner":[…]}`: values one level down, so errors have a path.
private struct Holder<Value: Encodable>: Encodable {
    var inner: [Value]
}
