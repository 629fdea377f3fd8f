import ControlProtocol
import Testing

@testable import waypointctl

/// Snapshots of `watch`'s compass, each checked by eye: the ring turns with the heading, so the
/// wearer's heading is always at the top (under v), and at heading 90° E is at the top and N at
/// the left. The destination pin * sits at bearing − heading, clockwise from the top.
@Suite("watch: the compass frame")
struct CompassFrameTests {
    /// Guiding to the Eiffel Tower, 1.24 km away on a bearing of 62°, motor at 55%.
    static func guiding(headingDegrees: Double, errorDegrees: Double) -> StatusReport {
        StatusReport(
            state: "guiding", heading: .init(trueDegrees: headingDegrees, isReliable: true),
            destination: .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower"),
            bearingDegrees: 62, distanceMeters: 1240, errorDegrees: errorDegrees,
            haptic: .init(intensity: 0.55, duty: 0.48))
    }

    /// 60 × 17 cells: a ring of radius 5 rows (10 columns).
    static let columns = 60
    static let rows = 17

    private func frame(_ status: StatusReport, columns: Int = columns, rows: Int = rows) -> String {
        CompassFrame.render(status, columns: columns, rows: rows).joined(separator: "\n")
    }

    @Test("heading 0°: north up, the pin up and to the right at 62°")
    func headingNorth() {
        #expect(
            frame(Self.guiding(headingDegrees: 0, errorDegrees: 62)) == """
                      heading 0° N
                            v
                        ....N....
                     ..+         +..
                   +..             ..+
                  ..                 ..
                  .              *    .
                  W         o         E
                  .                   .
                  ..                 ..
                   +..             ..+
                     ..+         +..
                        ....S....
                  state   guiding
                  target  Eiffel Tower, 1.24 km at 62° ENE, 62° right
                  motor   [###########---------] 55%
                """)
    }

    @Test("heading 45°: N up-left, E up-right, the pin 17° right of the top")
    func headingNortheast() {
        #expect(
            frame(Self.guiding(headingDegrees: 45, errorDegrees: 17)) == """
                     heading 45° NE
                            v
                        .+.....+.
                     N..         ..E
                   ...        *    ...
                  ..                 ..
                  +                   +
                  .         o         .
                  +                   +
                  ..                 ..
                   ...             ...
                     W..         ..S
                        .+.....+.
                  state   guiding
                  target  Eiffel Tower, 1.24 km at 62° ENE, 17° right
                  motor   [###########---------] 55%
                """)
    }

    @Test("heading 90°: E at the top, N at the left, S at the right, W at the bottom")
    func headingEast() {
        #expect(
            frame(Self.guiding(headingDegrees: 90, errorDegrees: -28)) == """
                      heading 90° E
                            v
                        ....E....
                     ..+         +..
                   +..   *         ..+
                  ..                 ..
                  .                   .
                  N         o         S
                  .                   .
                  ..                 ..
                   +..             ..+
                     ..+         +..
                        ....W....
                  state   guiding
                  target  Eiffel Tower, 1.24 km at 62° ENE, 28° left
                  motor   [###########---------] 55%
                """)
    }

    @Test("heading 200°: N near the bottom, the destination behind on the left")
    func headingSouthSouthwest() {
        #expect(
            frame(Self.guiding(headingDegrees: 200, errorDegrees: -138)) == """
                    heading 200° SSW
                            v
                        .S....+..
                     ...         .+.
                   .+.             ...
                  ..                 W.
                  +                   .
                  .         o         .
                  .                   +
                  .E    *            ..
                   ...             .+.
                     .+.         ...
                        ..+....N.
                  state   guiding
                  target  Eiffel Tower, 1.24 km at 62° ENE, 138° left
                  motor   [###########---------] 55%
                """)
    }

    @Test("no fix and no destination: the ring without a pin, the motor off")
    func noFix() {
        let status = StatusReport(
            state: "no-fix", heading: .init(trueDegrees: 45, isReliable: true), calibration: "stored", isMuted: false)
        #expect(
            frame(status) == """
                     heading 45° NE
                            v
                        .+.....+.
                     N..         ..E
                   ...             ...
                  ..                 ..
                  +                   +
                  .         o         .
                  +                   +
                  ..                 ..
                   ...             ...
                     W..         ..S
                        .+.....+.
                  state   no-fix (no usable GPS fix)
                  target  none
                  motor   [--------------------] off
                """)
    }

    @Test("no heading: drawn north up, with ? instead of the lubber mark")
    func noHeading() {
        #expect(
            frame(StatusReport(state: "no-heading")) == """
                  heading unknown (north up)
                            ?
                        ....N....
                     ..+         +..
                   +..             ..+
                  ..                 ..
                  .                   .
                  W         o         E
                  .                   .
                  ..                 ..
                   +..             ..+
                     ..+         +..
                        ....S....
                  state   no-heading (compass unreliable)
                  target  none
                  motor   [--------------------] off
                """)
    }

    @Test("a terminal too small for the ring gets the text lines, cut to its width")
    func smallTerminal() {
        #expect(
            frame(Self.guiding(headingDegrees: 0, errorDegrees: 62), columns: 30, rows: 10) == """
                  heading 0° N
                  state   guiding
                  target  Eiffel Tower, 1.24 k
                  motor   [#######------] 55%
                """)
    }

    @Test("the frame never has more lines than the terminal, nor lines wider than it")
    func fitsTheTerminal() {
        for (columns, rows) in [(80, 24), (60, 17), (40, 12), (20, 8), (120, 60)] {
            for heading in stride(from: 0.0, to: 360, by: 15) {
                let lines = CompassFrame.render(
                    Self.guiding(headingDegrees: heading, errorDegrees: 62 - heading), columns: columns, rows: rows)
                #expect(lines.count < rows, "\(columns)×\(rows) at \(heading)°")
                #expect(lines.allSatisfy { $0.count <= columns }, "\(columns)×\(rows) at \(heading)°")
                #expect(lines.filter { $0.contains("*") }.count == (lines.count > 5 ? 1 : 0))
            }
        }
    }

    @Test("the motor bar shows a playing pattern, mute, and the intensity")
    func motorLine() {
        var status = Self.guiding(headingDegrees: 0, errorDegrees: 62)
        status.haptic = .init(intensity: 1, duty: 1)
        #expect(frame(status).hasSuffix("  motor   [####################] 100%"))
        status.isMuted = true
        #expect(frame(status).hasSuffix("  motor   muted"))
        status.haptic.pattern = "arrived"
        #expect(frame(status).hasSuffix("  motor   playing arrived"))
    }
}
