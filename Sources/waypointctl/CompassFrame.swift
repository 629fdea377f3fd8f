import ClientSupport
import ControlProtocol
@preconcurrency import Glibc

/// One frame of `waypointctl watch`: a compass ring that turns with the wearer (heading up),
/// and the state, target and motor drive below. Pure: the same report and size always give the
/// same lines, which tests compare with drawn snapshots.
///
/// ```
///      heading  90° E
///            v
///        ...#*#...        the top of the ring is where the wearer faces; * is the
///      ..  E     ..       destination and # the zone around it where the motor answers;
///      .  N  o  S  .      N, E, S and W, inside the ring, turn with the heading
///      ..  W     ..
///        .........
/// ```
///
/// The layout never moves: the ring's cells are fixed for a size (only the glyph in each
/// changes), the header starts in a fixed column, and the target line keeps its numbers and
/// shortens the name. Without a heading, or while not guiding, the ring is drawn empty (no
/// pin, no zone, no turn hint), because a drawn direction would be a false one.
enum CompassFrame {
    /// The ring's largest radius in rows; a bigger ring says no more.
    static let maximumRadiusRows = 8
    /// The smallest ring worth drawing; on a smaller terminal only the text lines are shown.
    static let minimumRadiusRows = 3
    /// Terminal cells are about twice as tall as wide: columns per row of radius.
    static let cellAspect = 2
    /// Lines that are not the ring: heading, lubber mark, and three below.
    static let textLineCount = 5
    /// The widest motor bar, in cells.
    static let maximumBarCells = 20
    /// Columns of indent before the ring and the labels.
    static let margin = 2
    /// The glyphs: ring, zone, destination, centre, and the centre without a heading.
    static let ringGlyph: Character = "."
    static let zoneGlyph: Character = "#"
    static let pinGlyph: Character = "*"
    static let centreGlyph: Character = "o"
    static let unknownGlyph: Character = "?"
    /// The widest header, `heading 359° NNE`: the header's start column is fixed by it.
    static let headerWidth = "heading 359° NNE".count

    /// One cell of a ring: where it is, and the screen direction it stands for (degrees
    /// clockwise from the top).
    struct RingCell: Equatable {
        let row: Int
        let column: Int
        let screenDegrees: Double
    }

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
        let heading = status.shownHeadingDegrees
        let indent = String(repeating: " ", count: margin)
        var lines: [String] = []
        if radius >= minimumRadiusRows {
            let ringWidth = 2 * cellAspect * radius + 1
            let headerStart = max(0, (ringWidth - headerWidth) / 2)
            lines.append(indent + String(repeating: " ", count: headerStart) + header(status))
            lines.append(indent + String(repeating: " ", count: radius * cellAspect) + (heading == nil ? "?" : "v"))
            lines += ring(radius: radius, headingDegrees: heading, status: status).map { indent + $0 }
        } else {
            lines.append(indent + header(status))
        }
        lines.append(indent + "state   \(Presentation.state(status.state))")
        lines.append(indent + "target  \(target(status, width: columns - margin - 8))")
        lines.append(indent + "motor   \(motor(status, columns: columns))")
        return lines.map { trimmed(String($0.prefix(max(columns, 0)))) }
    }

    /// `heading  45° NE`, in a fixed layout (the number right-aligned in three cells), so the
    /// text does not shift as the heading changes.
    private static func header(_ status: StatusReport) -> String {
        guard let heading = status.shownHeadingDegrees else { return "heading unknown" }
        let whole = String(Presentation.wholeDegrees(heading))
        let point = Presentation.compassPoint(degrees: heading) ?? ""
        return "heading " + String(repeating: " ", count: max(0, 3 - whole.count)) + whole + "° " + point
    }

    /// The ring, heading up, as `2·radius + 1` lines of `2·aspect·radius + 1` cells.
    private static func ring(radius: Int, headingDegrees: Double?, status: StatusReport) -> [String] {
        let height = 2 * radius + 1
        let width = 2 * cellAspect * radius + 1
        var cells = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        let outer = ringCells(radius: radius)
        let error = status.shownTurnDegrees
        let zone = status.haptic.zoneDegrees
        let inside = status.haptic.mode != "away"
        let pin = error.map { error in outer.min { angleBetween($0.screenDegrees, error) < angleBetween($1.screenDegrees, error) } }
        for cell in outer {
            var glyph = ringGlyph
            if let error, let zone, (angleBetween(cell.screenDegrees, error) <= zone) == inside { glyph = zoneGlyph }
            if cell == pin { glyph = pinGlyph }
            cells[cell.row][cell.column] = glyph
        }
        if let headingDegrees {
            // The compass points on a ring of their own inside, so they never hide the zone;
            // on a small ring the two meet at the diagonals, and those cells stay the ring's.
            let taken = Set(outer.map { $0.row * width + $0.column })
            let labels = ringCells(radius: radius - 1).map {
                RingCell(row: $0.row + 1, column: $0.column + cellAspect, screenDegrees: $0.screenDegrees)
            }.filter { !taken.contains($0.row * width + $0.column) }
            for (letter, bearing) in [("N", 0.0), ("E", 90.0), ("S", 180.0), ("W", 270.0)] {
                let screen = bearing - headingDegrees
                if let nearest = labels.min(by: { angleBetween($0.screenDegrees, screen) < angleBetween($1.screenDegrees, screen) }) {
                    cells[nearest.row][nearest.column] = Character(letter)
                }
            }
        }
        cells[radius][radius * cellAspect] = headingDegrees == nil ? unknownGlyph : centreGlyph
        return cells.map { trimmed(String($0)) }
    }

    /// The cells of a ring of `radius` rows, each once, in clockwise order from the top, in a
    /// box of `2·radius + 1` rows: the same cells for every heading, so the ring's density never
    /// changes as it turns.
    static func ringCells(radius: Int) -> [RingCell] {
        var result: [RingCell] = []
        var seen = Set<Int>()
        let width = 2 * cellAspect * radius + 1
        // Half a degree a step leaves no gap at the largest radius (8 rows, 16 columns).
        for step in 0..<720 {
            let radians = Double(step) / 2 * Double.pi / 180
            let column = radius * cellAspect + Int((Double(radius * cellAspect) * sin(radians)).rounded())
            let row = radius - Int((Double(radius) * cos(radians)).rounded())
            guard seen.insert(row * width + column).inserted else { continue }
            // The direction the cell itself stands for, from its position.
            let screen = atan2(Double(column - radius * cellAspect) / Double(cellAspect), Double(radius - row))
            result.append(RingCell(row: row, column: column, screenDegrees: screen * 180 / Double.pi))
        }
        return result
    }

    /// The angle between two directions, 0…180 degrees.
    private static func angleBetween(_ a: Double, _ b: Double) -> Double {
        abs(remainder(a - b, 360))
    }

    /// `Eiffel Tower, 1.24 km at 62° ENE, 17° right`, or `none`, fitted to `width` cells: the
    /// name is shortened with `…` (or left out) so the numbers always show.
    private static func target(_ status: StatusReport, width: Int) -> String {
        guard let destination = status.destination else { return "none" }
        let distance = status.distanceMeters.map { Presentation.distance(meters: $0) } ?? "distance unknown"
        let turn = status.shownTurnDegrees.map { ", " + Presentation.turn(errorDegrees: $0) } ?? ""
        // The bearing in full, as a compass point, or not at all: whatever fits beside the
        // distance and the turn, which matter most to someone walking.
        var forms = [distance + turn]
        if let bearing = status.bearingDegrees {
            if let point = Presentation.compassPoint(degrees: bearing) {
                forms.insert(distance + " at " + point + turn, at: 0)
            }
            forms.insert(distance + " at " + Presentation.shortDirection(degrees: bearing) + turn, at: 0)
        }
        let position = forms.first { $0.count <= width } ?? forms[forms.count - 1]
        guard let name = destination.name, !name.isEmpty else { return position }
        let room = width - position.count - 2
        if name.count <= room { return name + ", " + position }
        if room >= 2 { return name.prefix(room - 1) + "…, " + position }
        return position
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

    private static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
