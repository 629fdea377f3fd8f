import ControlProtocol
import Glibc
import Testing

@testable import waypointctl

/// Snapshots of `watch`'s compass (issue 18, item 5), each checked by eye: heading up (the
/// wearer faces the top, under v), N E S W inside the ring turning with the heading, the
/// destination * on the ring at bearing − heading, and # the zone where the motor answers.
@Suite("watch: the compass frame", .timeLimit(.minutes(5)))
struct CompassFrameTests {
    /// Guiding to `name`, `distance` m away on a bearing of `bearing`°, a ±20° zone.
    static func guiding(
        headingDegrees: Double, bearingDegrees: Double = 62, name: String? = "Eiffel Tower", distanceMeters: Double = 1240,
        intensity: Double = 0.55
    ) -> StatusReport {
        StatusReport(
            state: "guiding", heading: .init(trueDegrees: headingDegrees, isReliable: true),
            destination: .init(latitude: 48.8584, longitude: 2.2945, name: name),
            bearingDegrees: bearingDegrees, distanceMeters: distanceMeters,
            errorDegrees: remainder(bearingDegrees - headingDegrees, 360),
            haptic: .init(intensity: intensity, duty: 0.48, zoneDegrees: 20, mode: "toward"))
    }

    private func frame(_ status: StatusReport, columns: Int, rows: Int) -> String {
        CompassFrame.render(status, columns: columns, rows: rows).joined(separator: "\n")
    }

    @Test("100×40, heading 0°: north up, the pin at 62° with the zone around it")
    func large() {
        #expect(
            frame(Self.guiding(headingDegrees: 0), columns: 100, rows: 40) == """
                          heading   0° N
                                  v
                             ...........
                         ....     N     ....
                      ....                 ..##
                     ..                       ##
                    ..                         #*
                   ..                           ##
                  ..                             ##
                  .                               .
                  . W             o             E .
                  .                               .
                  ..                             ..
                   ..                           ..
                    ..                         ..
                     ..                       ..
                      ....                 ....
                         ....     S     ....
                             ...........
                  state   guiding
                  target  Eiffel Tower, 1.24 km at 62° ENE, 62° right
                  motor   [###########---------] 55%
                """)
    }

    @Test("50×14, heading 45°: N up-left, E up-right, the pin 17° right of the top; a long name is shortened")
    func medium() {
        #expect(
            frame(Self.guiding(headingDegrees: 45), columns: 50, rows: 14) == """
                  heading  45° NE
                        v
                     ...##*#
                   ...     #..
                  .. N     E ..
                  .     o     .
                  .. W     S ..
                   ...     ...
                     .......
                  state   guiding
                  target  Eiffel T…, 1.24 km at 62° ENE, 17° right
                  motor   [###########---------] 55%
                """)
    }

    @Test("30×8: no room for a ring; the numbers stay and the name goes (the issue's 'SE spot, 1.05 km at')")
    func small() {
        let status = Self.guiding(headingDegrees: 90, bearingDegrees: 135, name: "SE spot", distanceMeters: 1050, intensity: 0)
        #expect(
            frame(status, columns: 30, rows: 8) == """
                  heading  90° E
                  state   guiding
                  target  1.05 km, 45° right
                  motor   [-------------] off
                """)
        #expect(
            frame(status, columns: 50, rows: 14) == """
                  heading  90° E
                        v
                     ......#
                   ...  E  #*#
                  ..         ..
                  . N   o   S .
                  ..         ..
                   ...  W  ...
                     .......
                  state   guiding
                  target  SE spot, 1.05 km at 135° SE, 45° right
                  motor   [--------------------] off
                """)
    }

    @Test("no heading: an empty ring with ? for the lubber mark and the centre, no pin, no turn hint")
    func noHeading() {
        var status = Self.guiding(headingDegrees: 10)
        status.state = "no-heading"
        status.heading.isReliable = false
        #expect(
            frame(status, columns: 50, rows: 14) == """
                  heading unknown
                        ?
                     .......
                   ...     ...
                  ..         ..
                  .     ?     .
                  ..         ..
                   ...     ...
                     .......
                  state   no-heading (compass unreliable)
                  target  Eiffel Tower, 1.24 km at 62° ENE
                  motor   [###########---------] 55%
                """)
    }

    @Test("no fix: the compass points turn with the heading, but no pin, zone or distance")
    func noFix() {
        let status = StatusReport(
            state: "no-fix", heading: .init(trueDegrees: 10, isReliable: true),
            destination: .init(latitude: 48.85, longitude: 2.30, name: "bench"),
            haptic: .init(duty: 0, mode: "toward"))
        #expect(
            frame(status, columns: 50, rows: 14) == """
                  heading  10° N
                        v
                     .......
                   ... N   ...
                  ..         ..
                  . W   o   E .
                  ..         ..
                   ...   S ...
                     .......
                  state   no-fix (no usable GPS fix)
                  target  bench, distance unknown
                  motor   [--------------------] off
                """)
    }

    @Test("mode away: the zone is drawn where the motor answers, outside ±zone")
    func away() {
        let status = StatusReport(
            state: "guiding", heading: .init(trueDegrees: 300, isReliable: true),
            destination: .init(latitude: 48.85, longitude: 2.30),
            bearingDegrees: 330, distanceMeters: 85.4, errorDegrees: 30,
            haptic: .init(intensity: 0.2, duty: 0.15, zoneDegrees: 35, mode: "away"))
        #expect(
            frame(status, columns: 50, rows: 14) == """
                  heading 300° WNW
                        v
                     ###...*
                   ###W    ...
                  ##        N##
                  #     o     #
                  ##S        ##
                   ###    E###
                     #######
                  state   guiding
                  target  85 m at 330° NNW, 30° right
                  motor   [####----------------] 20%
                """)
    }

    @Test("a steady layout: at every heading the same ring cells and width, the header in the same column")
    func steady() {
        for (columns, rows) in [(100, 40), (50, 14), (80, 24)] {
            var layouts: Set<[[Int]]> = []
            var headerColumns: Set<Int> = []
            for heading in stride(from: 0.0, to: 360, by: 1) {
                let lines = CompassFrame.render(Self.guiding(headingDegrees: heading), columns: columns, rows: rows)
                let ring = lines.dropFirst(2).dropLast(3)
                // Where a ring glyph (., #, *) or a letter is; the letters sit inside the ring.
                layouts.insert(
                    ring.map { line in
                        line.enumerated().compactMap { ".#*".contains($0.element) ? $0.offset : nil }
                    })
                headerColumns.insert(lines[0].prefix { $0 == " " }.count)
                #expect(lines.filter { $0.contains("*") }.count == 1, "\(heading)°")
                #expect(lines.joined().filter { "NESW".contains($0) }.count >= 4, "\(heading)°")
            }
            #expect(layouts.count == 1, "\(columns)×\(rows): \(layouts.count) ring layouts")
            #expect(headerColumns.count == 1, "\(columns)×\(rows)")
        }
    }

    @Test("the zone and the pin move with the heading: the pin's cell is the one nearest bearing − heading")
    func zoneFollows() {
        let cells = CompassFrame.ringCells(radius: 5)
        #expect(Set(cells.map { [$0.row, $0.column] }).count == cells.count, "each cell once")
        for heading in stride(from: 0.0, to: 360, by: 10) {
            let lines = CompassFrame.render(Self.guiding(headingDegrees: heading), columns: 60, rows: 17)
            let ring = Array(lines.dropFirst(2).prefix(11)).map { Array($0.dropFirst(CompassFrame.margin)) }
            let error = remainder(62 - heading, 360)
            let nearest = cells.min { abs(remainder($0.screenDegrees - error, 360)) < abs(remainder($1.screenDegrees - error, 360)) }!
            #expect(ring[nearest.row].indices.contains(nearest.column) && ring[nearest.row][nearest.column] == "*", "\(heading)°")
            for cell in cells where abs(remainder(cell.screenDegrees - error, 360)) <= 20 && cell != nearest {
                #expect(ring[cell.row][cell.column] == "#", "\(heading)°: cell \(cell)")
            }
            for cell in cells where abs(remainder(cell.screenDegrees - error, 360)) > 20 {
                #expect(ring[cell.row].count <= cell.column || ring[cell.row][cell.column] != "#", "\(heading)°: cell \(cell)")
            }
        }
    }

    @Test("the frame never has more lines than the terminal, nor lines wider than it")
    func fitsTheTerminal() {
        for (columns, rows) in [(80, 24), (60, 17), (40, 12), (20, 8), (120, 60), (30, 8), (12, 4)] {
            for heading in stride(from: 0.0, to: 360, by: 15) {
                let lines = CompassFrame.render(Self.guiding(headingDegrees: heading), columns: columns, rows: rows)
                #expect(lines.count < max(rows, 5), "\(columns)×\(rows) at \(heading)°")
                #expect(lines.allSatisfy { $0.count <= columns }, "\(columns)×\(rows) at \(heading)°")
            }
        }
    }

    @Test("the motor bar shows a playing pattern, mute, and the intensity")
    func motorLine() {
        var status = Self.guiding(headingDegrees: 0)
        status.haptic = .init(intensity: 1, duty: 1)
        #expect(frame(status, columns: 60, rows: 17).hasSuffix("  motor   [####################] 100%"))
        status.isMuted = true
        #expect(frame(status, columns: 60, rows: 17).hasSuffix("  motor   muted"))
        status.haptic.pattern = "arrived"
        #expect(frame(status, columns: 60, rows: 17).hasSuffix("  motor   playing arrived"))
    }
}

/// `watch --plain` for screen readers (issue 18, item 5): quiet unless something is new.
@Suite("watch --plain: which updates become lines", .timeLimit(.minutes(5)))
struct PlainWatchFilterTests {
    @Test("the same update twice a second for a minute gives one line, then one more at 60 s")
    func unchanged() {
        var filter = PlainWatchFilter()
        let status = CompassFrameTests.guiding(headingDegrees: 45)
        let printed = stride(from: 0.0, through: 61, by: 0.5).compactMap { filter.line(for: status, atSeconds: $0) }
        #expect(printed.count == 2)
        #expect(printed.first == "guiding; heading 45° NE; Eiffel Tower 1.24 km at 62° ENE, 17° right; motor 55%")
    }

    @Test("numbers changing every update: a line at most every 5 s; the last change still comes out")
    func numbersChange() {
        var filter = PlainWatchFilter()
        var times: [Double] = []
        for step in 0..<40 {
            let seconds = Double(step) * 0.5
            let heading = step < 30 ? Double(step) : 29  // turning for 15 s, then still
            if filter.line(for: CompassFrameTests.guiding(headingDegrees: heading), atSeconds: seconds) != nil {
                times.append(seconds)
            }
        }
        #expect(times == [0, 5, 10, 15], "\(times)")
        // The value at 15 s (heading 29°) is the one it settled on: nothing held back.
    }

    @Test("a change of state, destination or pattern is printed at once")
    func events() {
        var filter = PlainWatchFilter()
        var status = CompassFrameTests.guiding(headingDegrees: 45)
        #expect(filter.line(for: status, atSeconds: 0) != nil)
        status.state = "arrived"
        #expect(filter.line(for: status, atSeconds: 0.5)?.hasPrefix("arrived") == true)
        status.haptic.pattern = "arrived"
        #expect(filter.line(for: status, atSeconds: 1)?.contains("playing arrived") == true)
        status.destination = nil
        #expect(filter.line(for: status, atSeconds: 1.5)?.contains("no destination") == true)
        #expect(filter.line(for: status, atSeconds: 2) == nil)
    }

    @Test("muting and a route moving on are printed at once too")
    func muteAndRoute() {
        var filter = PlainWatchFilter()
        var status = CompassFrameTests.guiding(headingDegrees: 45)
        status.isMuted = false
        #expect(filter.line(for: status, atSeconds: 0) != nil)
        status.isMuted = true
        #expect(filter.line(for: status, atSeconds: 0.5)?.hasSuffix("motor muted") == true)
        status.route = RouteReport(
            name: "Loop", waypoint: 2, count: 5, target: DestinationReport(latitude: 1, longitude: 2), remainingMeters: 500,
            isFinished: false)
        #expect(filter.line(for: status, atSeconds: 1)?.contains("; waypoint 2 of 5; ") == true)
        status.route?.waypoint = 3
        #expect(filter.line(for: status, atSeconds: 1.5) != nil)
        #expect(filter.line(for: status, atSeconds: 2) == nil)
    }

    @Test("no turn hint unless guiding; no heading shown in no-heading")
    func noHint() {
        var status = CompassFrameTests.guiding(headingDegrees: 45)
        status.state = "no-heading"
        #expect(WatchLine.text(for: status) == "no-heading; heading unknown; Eiffel Tower 1.24 km at 62° ENE; motor 55%")
        status.state = "no-fix"
        #expect(!WatchLine.text(for: status).contains("right"))
    }
}
