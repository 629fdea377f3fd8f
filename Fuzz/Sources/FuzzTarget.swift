import ControlProtocol
import Daemon
import Geodesy
@preconcurrency import Glibc

/// The libFuzzer targets: one binary, the target chosen by `WAYPOINT_FUZZ_TARGET`, so that one
/// instrumented build serves them all. Built only by `make fuzz` (`WAYPOINT_FUZZ=1` adds this
/// target to the package; see Package.swift), with `-sanitize=fuzzer`.
///
/// Each target checks a property as well as "does not crash": what parses must write back out
/// as text that parses to the same value. A violation traps, and libFuzzer keeps the input.
enum FuzzTarget: String, CaseIterable {
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

    /// The target named in the environment.
    static let selected: FuzzTarget = {
        guard let name = getenv("WAYPOINT_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name)
        else {
            fatalError("set WAYPOINT_FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
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
        }
    }
}
