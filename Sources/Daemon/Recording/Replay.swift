import ControlProtocol
import Core
import TextFormats

/// `waypointd replay FILE`: runs the navigation pipeline over a recording and prints one JSON
/// object per IMU sample: `{"t","state","heading","bearing","distance","error","intensity","sharpness",
/// "correction"}`.
public enum Replay {
    /// The largest recording replayed, in bytes: 256 MiB, about ten hours of a 52 Hz IMU. The
    /// recording is read whole, so the bound keeps a wrong path from filling memory.
    public static let maximumRecordingBytes = 256 << 20

    /// Replays `text` (a whole recording), writing each output line with `emit`.
    /// - Parameter configuration: The settings the recording was made with (`--config`).
    /// - Returns: the lines that could not be read, with their reasons; the rest are replayed.
    public static func run(_ text: String, configuration: Configuration = Configuration(), emit: (String) -> Void)
        -> [RecordingError]
    {
        // The calibration comes from the recording's first "calibration" line.
        run(text, pipeline: configuration.navigationPipeline(calibration: nil), emit: emit)
    }

    /// Replays `text` through `pipeline` (`waypoint-bench heading` sets its heading settings).
    public static func run(_ text: String, pipeline: NavigationPipeline, emit: (String) -> Void) -> [RecordingError] {
        var pipeline = pipeline
        var errors: [RecordingError] = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = trimmingBlanks(line)
            guard !trimmed.isEmpty else { continue }
            do throws(RecordingError) {
                let event = try RecordingEvent(parsing: String(trimmed), line: index + 1)
                if let output = pipeline.handle(event).output { emit(encode(output)) }
            } catch {
                errors.append(error)
            }
        }
        return errors
    }

    /// `line` without the blanks around it: spaces, tabs and the other Unicode space separators.
    /// The line holds no line breaks (the text was split at them), so `isWhitespace` finds
    /// exactly these.
    private static func trimmingBlanks(_ line: Substring) -> Substring {
        guard let first = line.firstIndex(where: { !$0.isWhitespace }),
            let last = line.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return line[first...last]
    }

    static func encode(_ output: NavigationPipeline.Output) -> String { JSONWriter.line(members(output)) }

    /// A replay line's members, in the order the README documents them.
    static func members(_ output: NavigationPipeline.Output) -> [(String, JSONWriter.Ordered)] {
        [
            ("t", .number(output.seconds)), ("state", .string(output.state)), ("heading", .number(output.headingDegrees)),
            ("bearing", .number(output.bearingDegrees)), ("distance", .number(output.distanceMeters)),
            ("error", .number(output.errorDegrees)), ("intensity", .number(output.intensity)),
            ("sharpness", .number(output.sharpness)), ("correction", .string(output.correction)),
        ]
    }
}
