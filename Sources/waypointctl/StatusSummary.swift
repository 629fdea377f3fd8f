import ClientSupport
import ControlProtocol
import Geodesy

/// `waypointctl status` for people: one `label: value` line per fact, always in the same order,
/// with no decoration, so a screen reader reads it line by line and a script can `grep` it.
enum StatusSummary {
    /// The summary of a `STATUS` reply.
    /// - Parameter status: The reply.
    /// - Returns: The lines to print.
    static func lines(for status: StatusReport) -> [String] {
        var lines = ["state: \(Presentation.state(status.state))"]

        if let heading = status.shownHeadingDegrees {
            lines.append("heading: \(Presentation.direction(degrees: heading))")
        } else {
            lines.append("heading: unknown" + (Presentation.headingProblem(status.heading).map { " (\($0))" } ?? ""))
        }

        if let destination = status.destination {
            lines.append("destination: " + Presentation.place(destination))
            lines.append("distance: \(status.distanceMeters.map { Presentation.distance(meters: $0) } ?? "unknown")")
            lines.append("bearing: \(status.bearingDegrees.map { Presentation.direction(degrees: $0) } ?? "unknown")")
            lines.append("turn: \(status.shownTurnDegrees.map { Presentation.turn(errorDegrees: $0) } ?? "unknown")")
            if let route = status.route {
                let remaining = route.remainingMeters.map { ", \(Presentation.distance(meters: $0)) to the end" } ?? ""
                if let walk = route.walk, !route.isFinished {
                    lines.append("walk: " + (route.name.map { "to \($0), " } ?? "") + "corner \(route.waypoint) of \(route.count)")
                    lines += RouteSummary.walkLines(walk, remainingMeters: route.remainingMeters)
                } else {
                    lines.append(
                        "route: \(route.name.map { $0 + ", " } ?? "")waypoint \(route.waypoint) of \(route.count)"
                            + (route.isFinished ? ", finished" : remaining))
                }
            }
        } else {
            lines.append("destination: none")
        }

        lines.append("fix: \(fix(status.fix))")
        if let fix = status.fix, let latitude = fix.latitude, let longitude = fix.longitude {
            // A fix that cannot guide is where the wearer was, not where they are.
            let known = fix.problem == nil ? "" : " (last known)"
            lines.append(
                "position: \(Presentation.place(latitudeDegrees: latitude, longitudeDegrees: longitude, name: nil))\(known)")
            if let altitude = fix.altitudeMSLMeters {
                lines.append("elevation: \(DecimalFormat.fixed(altitude, fractionDigits: 0)) m above sea level\(known)")
            }
        }
        lines.append("motor: \(motor(status.haptic, muted: status.isMuted == true))")
        if let imu = status.imu {
            let errors = imu.transferErrors == 0 ? "" : ", \(imu.transferErrors) read errors"
            lines.append("imu: \(imu.chips)\(errors)")
        }
        lines.append("calibration: \(status.calibration ?? "unknown")")
        lines.append("muted: \(status.isMuted.map { $0 ? "yes" : "no" } ?? "unknown")")
        if let map = status.map { lines.append("map: \(map.source), OpenStreetMap data of \(map.timestamp.prefix(10))") }
        // Last, one a line, so that "everything is fine" is the absence of these lines.
        for problem in status.problems { lines.append("problem: \(problem)") }
        return lines
    }

    /// `3D, estimated error 4.2 m`, `3D, estimated error 4.2 m, 42 s old (stale)`, or `none`.
    private static func fix(_ fix: StatusReport.Fix?) -> String {
        guard let fix, fix.mode >= 2 else { return "none" }
        let error = fix.horizontalErrorMeters.map { "estimated error \(Presentation.distance(meters: $0))" }
        var parts = [Presentation.fixMode(fix.mode), error ?? "error unknown"]
        if let problem = fix.problem {
            let age = fix.ageSeconds.map { "\(Int($0.rounded())) s old" }
            parts.append([age, "(\(problem == "imprecise" ? "too imprecise to guide" : problem))"].compactMap { $0 }.joined(separator: " "))
        }
        return parts.joined(separator: ", ")
    }

    /// `intensity 55%, duty 48%`, `playing gps-lost, duty 100%`, or `off`.
    private static func motor(_ haptic: StatusReport.Haptic, muted: Bool) -> String {
        let intensity = haptic.intensity ?? 0
        let duty = haptic.duty ?? 0
        if let pattern = haptic.pattern {
            return "playing \(pattern), duty \(Presentation.percent(duty))"
        }
        guard intensity > 0 || duty > 0 else { return muted ? "off (muted)" : "off" }
        return "intensity \(Presentation.percent(intensity)), duty \(Presentation.percent(duty))"
    }
}
