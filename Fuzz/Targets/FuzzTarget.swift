import ControlProtocol
import Core
import Daemon
import GPX
import Geodesy
import LocationIntake
import TextFormats

/// The libFuzzer targets: one binary (`Fuzz/Sources`), the target chosen by
/// `WAYPOINT_FUZZ_TARGET`, so that one instrumented build serves them all; `make fuzz` builds it
/// (`WAYPOINT_FUZZ=1` adds it to the package; see Package.swift) with `-sanitize=fuzzer`. The
/// targets themselves are this library, so that `make test` replays every input kept in
/// `Fuzz/corpus` through them without the fuzzer (FuzzCorpusTests).
///
/// Each target checks a property as well as "does not crash": what parses must write back out
/// as text that parses to the same value. A violation traps, and libFuzzer keeps the input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONParser`: any bytes; a parsed value written compactly parses back equal.
    case json
    /// `ControlRequest(line:)`: any line; a request's own line decodes to the same request.
    case request
    /// `Coordinate(parsing:)`: any text; a coordinate is in range, and its decimal form parses
    /// back within the precision written.
    case coordinate
    /// `ConfigurationParser`: any text; a configuration prints as a file that parses back equal.
    case configuration
    /// `RecordingEvent(parsing:line:)`, each line of any text, and `Replay.run` over it all.
    case recording
    /// `LocationParser`: any text, with and without a reference; a location is in range, its
    /// name passes the place-name rule, its precision is a distance, and written back as a
    /// `geo:` URI it reads as the same point.
    case location
    /// `GPXReader`: any bytes; a document written by `GPXWriter` reads back with the same
    /// points, names and times (numbers to the digits written).
    case gpx
    /// The companion's `CompanionRouter`: any request, against a scripted daemon; a status
    /// from 100 to 599, JSON where it says JSON, and only requests the daemon reads as sent.
    case companion

    /// Runs one input; a violated property traps.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .json:
            guard let value = try? JSONParser.parse(bytes) else { return }
            let written = JSONWriter.bytes(value, layout: .compact)
            precondition((try? JSONParser.parse(written)) == value, "JSON round trip changed \(value)")
        case .request:
            guard let request = try? ControlRequest(line: bytes) else { return }
            precondition((try? ControlRequest(line: request.line.dropLast())) == request, "request round trip: \(request)")
        case .coordinate:
            guard let text = String(validating: bytes, as: UTF8.self), let coordinate = try? Coordinate(parsing: text)
            else { return }
            precondition(abs(coordinate.latitudeDegrees) <= 90 && abs(coordinate.longitudeDegrees) <= 180)
            let again = try? Coordinate(parsing: coordinate.formattedDecimal(fractionDigits: 7))
            precondition(
                again.map {
                    abs($0.latitudeDegrees - coordinate.latitudeDegrees) <= 1e-7
                        && (abs($0.longitudeDegrees - coordinate.longitudeDegrees) <= 1e-7
                            || abs(abs($0.longitudeDegrees - coordinate.longitudeDegrees) - 360) <= 1e-7)
                } == true, "\(text) parsed as \(coordinate), which does not read back")
        case .configuration:
            guard let text = String(validating: bytes, as: UTF8.self),
                let configuration = try? ConfigurationParser.parse(text, fileName: "fuzz")
            else { return }
            precondition(
                (try? ConfigurationParser.parse(configuration.printed, fileName: "printed")) == configuration,
                "the printed configuration reads back differently")
        case .recording:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            for (index, line) in text.split(separator: "\n").enumerated() {
                _ = try? RecordingEvent(parsing: String(line), line: index + 1)
            }
            _ = Replay.run(text) { _ in }
        case .location:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            let reference = Coordinate(uncheckedLatitudeDegrees: 48.86, longitudeDegrees: 2.35)
            for near in [nil, reference] {
                guard let location = try? LocationParser.parse(text, near: near) else { continue }
                let point = location.coordinate
                precondition(abs(point.latitudeDegrees) <= 90 && abs(point.longitudeDegrees) <= 180, "\(text): \(location)")
                precondition((try? PlaceName.validated(location.name)) == location.name, "\(text): name \(location)")
                precondition(location.precisionMeters.map { $0.isFinite && $0 >= 0 } ?? true, "\(text): \(location)")
                let written =
                    "geo:" + DecimalFormat.fixed(point.latitudeDegrees, fractionDigits: 9) + ","
                    + DecimalFormat.fixed(point.longitudeDegrees, fractionDigits: 9)
                let again = try? LocationParser.parse(written)
                precondition(
                    again.map {
                        abs($0.coordinate.latitudeDegrees - point.latitudeDegrees) <= 1e-9
                            && abs($0.coordinate.longitudeDegrees - point.longitudeDegrees) <= 1e-9
                    } == true, "\(text): \(written) reads differently")
            }
        case .companion:
            CompanionFuzzing.run(bytes)
        case .gpx:
            guard let document = try? GPXReader.read(bytes) else { return }
            let again = try? GPXReader.read(Array(GPXWriter.text(document, creator: "fuzz").utf8))
            precondition(again.map { Self.samePoints(document, $0) } == true, "GPX round trip changed \(document)")
        }
    }

    /// Whether two documents hold the same names, times and points, to the digits
    /// `GPXWriter` writes.
    private static func samePoints(_ a: GPXDocument, _ b: GPXDocument) -> Bool {
        func flat(_ document: GPXDocument) -> [GPXPoint] {
            document.waypoints + document.routes.flatMap(\.points) + document.tracks.flatMap { $0.segments.flatMap { $0 } }
        }
        func close(_ x: Double?, _ y: Double?, _ tolerance: Double) -> Bool {
            switch (x, y) {
            case (nil, nil): true
            case (let x?, let y?): abs(x - y) <= tolerance
            default: false
            }
        }
        let (pointsA, pointsB) = (flat(a), flat(b))
        return a.name == b.name && a.routes.map(\.name) == b.routes.map(\.name) && a.tracks.map(\.name) == b.tracks.map(\.name)
            && a.tracks.map { $0.segments.map(\.count) } == b.tracks.map { $0.segments.map(\.count) }
            && pointsA.count == pointsB.count
            && zip(pointsA, pointsB).allSatisfy { p, q in
                close(p.latitudeDegrees, q.latitudeDegrees, 1e-9) && close(p.longitudeDegrees, q.longitudeDegrees, 1e-9)
                    && close(p.elevationMeters, q.elevationMeters, 1e-3) && close(p.horizontalDilution, q.horizontalDilution, 1e-2)
                    && p.name == q.name && p.time == q.time && p.satellites == q.satellites
            }
    }
}
