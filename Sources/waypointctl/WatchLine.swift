import ClientSupport
import ControlProtocol

/// `waypointctl watch` when standard output is not a terminal (or with `--plain`): one line per
/// update, for logs, pipes and screen readers.
enum WatchLine {
    /// `guiding; heading 45° NE; Eiffel Tower 1.24 km at 62° ENE, 17° right; motor 55%`.
    /// - Parameter status: The update.
    /// - Returns: The line, without a newline.
    static func text(for status: StatusReport) -> String {
        var parts = [status.state]
        if let heading = status.shownHeadingDegrees {
            parts.append("heading \(Presentation.shortDirection(degrees: heading))")
        } else {
            parts.append("heading unknown")
        }
        if let destination = status.destination {
            var target = destination.name.map { $0.isEmpty ? "" : $0 + " " } ?? ""
            target += status.distanceMeters.map { Presentation.distance(meters: $0) } ?? "distance unknown"
            if let bearing = status.bearingDegrees { target += " at \(Presentation.shortDirection(degrees: bearing))" }
            if let error = status.shownTurnDegrees { target += ", \(Presentation.turn(errorDegrees: error))" }
            parts.append(target)
            if let route = status.route, let walk = route.walk, !route.isFinished {
                parts.append(walk.next.map(\.instruction) ?? "straight on to the destination")
                if walk.replans > 0 { parts.append("planned again \(walk.replans)×") }
            } else if let route = status.route {
                parts.append("waypoint \(route.waypoint) of \(route.count)")
            }
        } else {
            parts.append("no destination")
        }
        let intensity = status.haptic.intensity ?? 0
        if let pattern = status.haptic.pattern {
            parts.append("playing \(pattern)")
        } else {
            parts.append(
                status.isMuted == true
                    ? "motor muted" : intensity > 0 ? "motor \(Presentation.percent(intensity))" : "motor off")
        }
        return parts.joined(separator: "; ")
    }
}
