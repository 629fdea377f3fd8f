import ClientSupport
import ControlProtocol
import TextFormats

/// `waypointctl route`: where the route stands, one `label: value` line each.
enum RouteSummary {
    /// - Parameters:
    ///   - report: The `ROUTE` reply's route; nil when none is loaded.
    ///   - command: What was asked, for the first line (`route loaded`, `route reversed`).
    static func lines(for report: RouteReport?, after command: DaemonCommand) -> [String] {
        guard let report else {
            return [command == .route(.clear) ? "route cleared; guidance stopped" : "no route is loaded"]
        }
        var lines: [String] = []
        switch command {
        case .routeLoad: lines.append("route loaded")
        case .route(.next): lines.append("skipped on to the next waypoint")
        case .route(.previous): lines.append("back to the waypoint before")
        case .route(.reverse): lines.append("route reversed")
        default: break
        }
        if let name = report.name { lines.append("route: \(name)") }
        let place = Presentation.place(report.target)
        lines.append(
            report.isFinished
                ? "waypoint: \(report.count) of \(report.count), finished: \(place)"
                : "waypoint: \(report.waypoint) of \(report.count): \(place)")
        if let walk = report.walk, !report.isFinished {
            lines += walkLines(walk, remainingMeters: report.remainingMeters)
            if let steps = walk.steps, steps.count > 1 {
                lines.append("then:")
                lines += steps.dropFirst().enumerated().map { "  \($0.offset + 2). \(PlaceName.printable($0.element.instruction))" }
            }
        } else if let remaining = report.remainingMeters, !report.isFinished {
            lines.append("remaining: \(Presentation.distance(meters: remaining)) along the route")
        }
        return lines
    }

    /// A walk in a few lines: the next turn, what is left, how often it was planned again.
    static func walkLines(_ walk: WalkReport, remainingMeters: Double?) -> [String] {
        var lines = ["next: " + (walk.next.map { PlaceName.printable($0.instruction) } ?? "straight on to the destination")]
        if let remaining = remainingMeters { lines.append("remaining: \(Presentation.distance(meters: remaining)) along the streets") }
        if walk.replans > 0 { lines.append("planned again: \(walk.replans) time\(walk.replans == 1 ? "" : "s") (you strayed from the path)") }
        if let problem = walk.problem { lines.append("problem: \(PlaceName.printable(problem))") }
        return lines
    }
}
