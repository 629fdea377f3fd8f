import ControlProtocol

/// Replies of every kind the daemon sends, for the tests that encode and decode them: the
/// JSON writer against Foundation's encoder, and waypointctl's decoding round trip. Each suite
/// adds the status replies its own point needs.
public enum ExampleReplies {
    /// A version greeting of each form, `OK`, an idle status, recent lists empty and full, the
    /// three calibration reports, and an error of every code (with text that needs escaping).
    public static let common: [ControlReply] =
        [
            .version(VersionGreeting()), .version(VersionGreeting(release: "9.9.9", protocolVersion: 7)), .ok,
            .status(StatusReport(state: "idle")),
            .recent([]),
            .recent([
                .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower"),
                .init(latitude: -33.8568, longitude: 151.2153, name: nil),
            ]),
            .calibration(CalibrationReport(state: "none")),
            .calibration(
                CalibrationReport(
                    state: "running", samples: 412, octants: [60, 48, 51, 50, 55, 49, 47, 52], message: "keep turning")),
            .calibration(
                CalibrationReport(
                    state: "stored",
                    quality: .init(
                        fitErrorPercent: 1.2, coveragePercent: 85, fittedFieldMicrotesla: 48.1,
                        referenceFieldMicrotesla: 47.9, sampleCount: 412),
                    created: "2026-05-01T12:00:00Z", message: "calibration stored")),
        ] + ControlErrorCode.allCases.map { .error(ControlError($0, "what went wrong: \($0.rawValue) é 😀")) }
}
