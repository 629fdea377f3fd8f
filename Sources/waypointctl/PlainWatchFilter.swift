import ControlProtocol

/// Which updates `watch --plain` prints: a screen reader speaks every line, so a line comes
/// only when it says something new (issue 18, item 5).
///
/// - A change of state, destination, route waypoint, mute or playing pattern, or a walk
///   planned again, is printed at once.
/// - Any other change of what the line shows (its rounded numbers) is printed at most once
///   every ``secondsBetweenChanges``; a change held back is printed when that time is up, if
///   it still stands.
/// - An unchanged line is printed again after ``repeatSeconds``, so a listener knows the
///   watch is still alive.
///
/// Pure: the caller passes the time.
struct PlainWatchFilter {
    /// The least time between two lines for changes of the numbers alone, seconds.
    static let secondsBetweenChanges = 5.0
    /// After this long without a line, the unchanged line is printed again, seconds.
    static let repeatSeconds = 60.0

    private var lastLine: String?
    private var lastEvent: [String?] = []
    private var lastPrintedSeconds = -Double.infinity

    /// The line to print for `status`, or nil to stay quiet.
    /// - Parameters:
    ///   - status: The update.
    ///   - seconds: A monotonic time, seconds.
    mutating func line(for status: StatusReport, atSeconds seconds: Double) -> String? {
        let line = WatchLine.text(for: status)
        let event = [
            status.state, status.destination.map { "\($0.latitude),\($0.longitude),\($0.name ?? "")" }, status.haptic.pattern,
            status.isMuted.map { $0 ? "muted" : "on" }, status.route.map { "\($0.waypoint)/\($0.count)" },
            status.route?.walk.map { "replans \($0.replans)" },
        ]
        let elapsed = seconds - lastPrintedSeconds
        let due =
            lastLine == nil || event != lastEvent
            || (line != lastLine && elapsed >= Self.secondsBetweenChanges) || elapsed >= Self.repeatSeconds
        guard due else { return nil }
        lastLine = line
        lastEvent = event
        lastPrintedSeconds = seconds
        return line
    }
}
