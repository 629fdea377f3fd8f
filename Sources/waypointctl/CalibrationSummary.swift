import ControlProtocol
import Geodesy

/// `waypointctl calibrate` for people: the `CALIBRATION` reply as `label: value` lines.
enum CalibrationSummary {
    /// The summary of a `CALIBRATION` reply.
    /// - Parameter report: The reply.
    /// - Returns: The lines to print.
    static func lines(for report: CalibrationReport) -> [String] {
        var lines = ["calibration: \(state(report.state))"]
        if let samples = report.samples {
            lines.append("samples: \(samples)")
        }
        lines += missingLines(report)
        if let ready = report.isReady {
            lines.append(ready ? "ready: yes (run: waypointctl calibrate finish)" : "ready: not yet")
        }
        if let quality = report.quality {
            lines.append("quality: \(self.quality(quality))")
        }
        if let created = report.created {
            lines.append("created: \(created)")
        }
        if let message = report.message, !message.isEmpty {
            lines.append("message: \(message)")
        }
        return lines
    }

    /// `missing: tilt it nose-down and to the left`, one line a direction still short of
    /// samples (the octant counts stay in the JSON).
    static func missingLines(_ report: CalibrationReport) -> [String] {
        (report.missing ?? []).map { "missing: \($0)" }
    }

    private static func state(_ state: String) -> String {
        switch state {
        case "none": "none (the heading is unreliable until one is made)"
        case "stored": "stored (in use)"
        case "running": "running (turn the device slowly through a figure eight)"
        default: state
        }
    }

    /// `fit error 1.2%, coverage 85%, field 48.1 µT scaled to 47.9 µT, 412 samples`.
    private static func quality(_ quality: CalibrationReport.Quality) -> String {
        var parts: [String] = []
        if let fit = quality.fitErrorPercent {
            parts.append("fit error \(DecimalFormat.fixed(fit, fractionDigits: 1))%")
        }
        if let coverage = quality.coveragePercent {
            parts.append("coverage \(DecimalFormat.fixed(coverage, fractionDigits: 0))%")
        }
        if let field = quality.fittedFieldMicrotesla {
            var text = "field \(DecimalFormat.fixed(field, fractionDigits: 1)) µT"
            if let reference = quality.referenceFieldMicrotesla {
                text += " scaled to \(DecimalFormat.fixed(reference, fractionDigits: 1)) µT"
            }
            parts.append(text)
        }
        if let samples = quality.sampleCount { parts.append("\(samples) samples") }
        return parts.isEmpty ? "unknown" : parts.joined(separator: ", ")
    }
}
