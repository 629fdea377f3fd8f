import ControlProtocol
@preconcurrency import Glibc

/// One frame of `waypointctl watch`: a compass ring that turns with the wearer (heading up),
/// the destination pin on it, and the state, distance and motor drive below. Pure: the same
/// report and size always give the same lines, which tests compare with drawn snapshots.
///
/// ```
///      heading 90° E
///            v
///        . . E . .        the top of the ring is where the wearer faces;
///      N     o     S      N, E, S, W and a + every 30° turn with the heading;
///        . . W . .        * is the destination
/// ```
enum CompassFrame {
    /// The ring's largest radius in rows; a bigger ring says no more.
    static let maximumRadiusRows = 8
    /// The smallest ring worth drawing; on a smaller terminal only the text lines are shown.
    static let minimumRadiusRows = 3
    /// Terminal cells are about twice as tall as wide: columns per row of radius.
    static let cellAspect = 2
    /// Where the pin sits, as a fraction of the ring's radius: inside it, clear of the marks.
    static let pinRadiusFraction = 0.6
    /// Angular step when tracing the ring, degrees: fine enough to leave no gaps at the largest size.
    static let ringStepDegrees = 3.0
    /// Lines that are not the ring: heading, lubber mark, and three below.
    static let textLineCount = 5
    /// The widest motor bar, in cells.
    static let maximumBarCells = 20
    /// Columns of indent before the ring and the labels.
    static let margin = 2

    /// The frame for a terminal of `columns` × `rows`.
    /// - Parameters:
    ///   - status: The latest `STATUS`.
    ///   - columns: The terminal's width in cells; lines are cut to it.
    ///   - rows: The terminal's height; the frame uses fewer, so the cursor never scrolls it.
    /// - Returns: The lines, without trailing blanks or escape sequences.
    static func render(_ status: StatusReport, columns: Int, rows: Int) -> [String] {
        // The ring takes 2·radius + 1 lines; the last line of the terminal stays free, because
        // writing it would scroll the screen.
        let ringRows = rows - 1 - textLineCount
        let radius = min(maximumRadiusRows, (ringRows - 1) / 2, (columns - 2 * margin - 1) / (2 * cellAspect))
        let headingDegrees = status.heading.trueDegrees
        var lines: [String] = []
        let header =
            if let headingDegrees {
                "heading \(Presentation.shortDirection(degrees: headingDegrees))"
                    + (status.heading.isReliable ? "" : " (unreliable)")
            } else {
                "heading unknown (north up)"
            }
        if radius >= minimumRadiusRows {
            let ringWidth = 2 * cellAspect * radius + 1
            lines.append(centered(header, width: ringWidth))
            lines.append(centered(headingDegrees == nil ? "?" : "v", width: ringWidth))
            lines += ring(radius: radius, headingDegrees: headingDegrees ?? 0, status: status)
                .map { String(repeating: " ", count: margin) + $0 }
        } else {
            lines.append(String(repeating: " ", count: margin) + header)
        }
        lines.append(String(repeating: " ", count: margin) + "state   \(Presentation.state(status.state))")
        lines.append(String(repeating: " ", count: margin) + "target  \(target(status))")
        lines.append(String(repeating: " ", count: margin) + "motor   \(motor(status, columns: columns))")
        return lines.map { trimmed(String($0.prefix(max(columns, 0)))) }
    }

    /// The ring, heading up, as `2·radius + 1` lines of `2·aspect·radius + 1` cells.
    private static func ring(radius: Int, headingDegrees: Double, status: StatusReport) -> [String] {
        let height = 2 * radius + 1
        let width = 2 * cellAspect * radius + 1
        var cells = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        /// Puts `mark` where the direction `bearing` (degrees from north) lies, at `fraction`
        /// of the radius: screen angle = bearing − heading, clockwise from the top.
        func place(_ mark: Character, bearingDegrees: Double, fraction: Double = 1) {
            let radians = (bearingDegrees - headingDegrees) * Double.pi / 180
            let column = radius * cellAspect + cellOffset(Double(radius * cellAspect) * fraction * sin(radians))
            let row = radius - cellOffset(Double(radius) * fraction * cos(radians))
            guard cells.indices.contains(row), cells[row].indices.contains(column) else { return }
            cells[row][column] = mark
        }
        // The ring itself does not turn (traced in screen angles), so it does not shimmer as
        // the heading changes by a degree; only the marks on it do.
        for step in stride(from: 0.0, to: 360.0, by: ringStepDegrees) {
            place(".", bearingDegrees: headingDegrees + step)
        }
        for mark in stride(from: 0, to: 360, by: 30) {
            let letter: Character =
                switch mark {
                case 0: "N"
                case 90: "E"
                case 180: "S"
                case 270: "W"
                default: "+"
                }
            place(letter, bearingDegrees: Double(mark))
        }
        cells[radius][radius * cellAspect] = "o"
        if status.destination != nil, let bearing = status.bearingDegrees {
            place("*", bearingDegrees: bearing, fraction: pinRadiusFraction)
        }
        return cells.map { trimmed(String($0)) }
    }

    /// The nearest whole cell to an offset from the centre, halves away from the centre.
    ///
    /// `cos(120°)` is −0.49999999999999978 but `cos(240°)` is −0.5000000000000004: rounded as
    /// they are, the marks on the two sides of the ring would land on different rows. Snapping
    /// to a millionth of a cell first makes such ties exact, so the ring stays symmetric.
    private static func cellOffset(_ cells: Double) -> Int {
        Int(((cells * snapPerCell).rounded() / snapPerCell).rounded())
    }

    /// Fractions of a cell that count as the same position: see ``cellOffset(_:)``.
    private static let snapPerCell = 1_000_000.0

    /// `Eiffel Tower, 1.24 km at 62° ENE, 17° right`, or `none`.
    private static func target(_ status: StatusReport) -> String {
        guard let destination = status.destination else { return "none" }
        var parts: [String] = []
        if let name = destination.name, !name.isEmpty { parts.append(name) }
        var position = status.distanceMeters.map { Presentation.distance(meters: $0) } ?? "distance unknown"
        if let bearing = status.bearingDegrees { position += " at \(Presentation.shortDirection(degrees: bearing))" }
        parts.append(position)
        if let error = status.errorDegrees { parts.append(Presentation.turn(errorDegrees: error)) }
        return parts.joined(separator: ", ")
    }

    /// `[##########----------] 50%`, `[--------------------] off`, `muted`, or `playing arrived`.
    private static func motor(_ status: StatusReport, columns: Int) -> String {
        if let pattern = status.haptic.pattern { return "playing \(pattern)" }
        if status.isMuted == true { return "muted" }
        let intensity = min(max(status.haptic.intensity ?? 0, 0), 1)
        // The label and indent take 10 cells, the percentage 5.
        let barCells = max(0, min(maximumBarCells, columns - margin - 8 - 2 - 5))
        let filled = Int((intensity * Double(barCells)).rounded())
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barCells - filled) + "]"
        return "\(bar) \(intensity > 0 ? Presentation.percent(intensity) : "off")"
    }

    private static func centered(_ text: String, width: Int) -> String {
        String(repeating: " ", count: margin + max(0, (width - text.count) / 2)) + text
    }

    private static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
