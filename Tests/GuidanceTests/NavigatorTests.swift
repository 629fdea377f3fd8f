import Geodesy
import Heading
import Testing

@testable import Guidance

@Suite("The navigator on a manual clock", .timeLimit(.minutes(5)))
struct NavigatorTests {
    static let here = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
    /// 3.17 km away at a bearing of 85.56° (GeodSolve: 85.56019101171199).
    static let there = Coordinate(uncheckedLatitudeDegrees: 48.8606, longitudeDegrees: 2.3376)
    static let bearing = 85.56019101171199

    static func fix(_ coordinate: Coordinate = here, eph: Double = 5) -> Fix {
        var fix = Fix(mode: .threeDimensional, time: UTCTime(seconds: 1_782_950_400), coordinate: coordinate)
        fix.horizontalErrorMeters = eph
        return fix
    }

    static func heading(_ degrees: Double, reliable: Bool = true) -> HeadingEstimate {
        HeadingEstimate(
            magneticDegrees: degrees, trueDegrees: degrees, declinationDegrees: 0, fieldMicrotesla: 48,
            inclinationDegrees: 64, interferenceScore: 0, problem: reliable ? nil : .interference)
    }

    static func cues(_ actions: some Sequence<Navigator.Action>) -> [HapticCue?] {
        actions.compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
    }

    static func patterns(_ actions: some Sequence<Navigator.Action>) -> [HapticPattern] {
        actions.compactMap { if case .play(let pattern) = $0 { pattern } else { nil } }
    }

    @Test("idle, accepted, no fix, guiding: silent unless facing the destination, stronger toward it")
    func guiding() {
        var navigator = Navigator()
        #expect(navigator.state == .idle)
        let accepted = navigator.setDestination(Self.there, at: 0)
        #expect(Self.patterns(accepted) == [.destinationAccepted])
        #expect(navigator.state == .noFix)
        _ = navigator.receive(Self.fix(), at: 0.5)
        _ = navigator.receive(Self.heading(Self.bearing + 90), at: 0.6)
        #expect(navigator.state == .guiding)
        #expect(navigator.cue == nil, "90° away: silent")
        #expect(abs((navigator.course?.bearingDegrees ?? 0) - Self.bearing) < 1e-9)
        var previous = -1.0
        for offset in stride(from: 20.0, through: 0, by: -2) {
            _ = navigator.receive(Self.heading(Self.bearing - offset), at: 1)
            let intensity = navigator.cue?.intensity ?? -1
            #expect(intensity > previous, "turning toward: \(offset)° off")
            previous = intensity
        }
        #expect(abs(previous - 1) < 1e-9)
    }

    @Test("the distance to the zone's edge, either side, while guiding with a heading; none otherwise")
    func zoneEdgeDistance() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        _ = navigator.receive(Self.heading(Self.bearing + 17), at: 0.1)
        #expect(navigator.zoneEdgeDistanceDegrees == nil, "no fix yet")
        _ = navigator.receive(Self.fix(), at: 0.5)
        for (offset, distance) in [(17.0, 3.0), (-17, 3), (23, 3), (-23, 3), (0, 20), (90, 70)] {
            _ = navigator.receive(Self.heading(Self.bearing + offset), at: 1)
            #expect(abs((navigator.zoneEdgeDistanceDegrees ?? -1) - distance) < 1e-9, "\(offset)° off")
        }
        _ = navigator.receive(Self.heading(Self.bearing, reliable: false), at: 1)
        #expect(navigator.zoneEdgeDistanceDegrees == nil, "no heading to guide by")
    }

    @Test("a stale fix stops the motor at once and warns, again every 10 s; the fix's return resumes guidance")
    func staleFix() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        _ = navigator.receive(Self.fix(), at: 0)
        _ = navigator.receive(Self.heading(Self.bearing), at: 0.1)
        #expect(navigator.cue != nil)
        // The heading keeps coming; only the fix goes stale.
        #expect(navigator.receive(Self.heading(Self.bearing), at: 2.9).isEmpty)
        let lost = navigator.receive(Self.heading(Self.bearing), at: 3.1)
        #expect(navigator.state == .noFix)
        #expect(Self.cues(lost) == [nil])
        #expect(Self.patterns(lost) == [.gpsLost])
        // Time passes as the daemon ticks it, at least every 2 s (a gap of over 3 s would be a
        // stall of the daemon, which settles again).
        var repeated: [(Double, HapticPattern)] = []
        for tenth in 32...132 {
            let seconds = Double(tenth) / 10
            repeated += Self.patterns(navigator.tick(at: seconds)).map { (seconds, $0) }
        }
        #expect(repeated.map(\.1) == [.gpsLost] && repeated.first.map { $0.0 >= 13.1 } == true, "\(repeated)")
        _ = navigator.receive(Self.fix(), at: 14)
        _ = navigator.receive(Self.heading(Self.bearing), at: 14.1)
        #expect(navigator.state == .guiding)
        #expect(navigator.cue != nil)
    }

    @Test("a heading that stops coming (a silent IMU) stops guidance after 1 s with the heading warning")
    func headingStops() {
        var navigator = Navigator()
        // Past the settling time after `go`, when warnings play.
        _ = navigator.setDestination(Self.there, at: -5)
        _ = navigator.receive(Self.fix(), at: 0)
        _ = navigator.receive(Self.heading(Self.bearing), at: 0.1)
        #expect(navigator.state == .guiding)
        #expect(navigator.tick(at: 1.1).isEmpty, "1 s old is still current")
        let lost = navigator.tick(at: 1.15)
        #expect(navigator.state == .noHeading)
        #expect(Self.cues(lost) == [nil])
        #expect(Self.patterns(lost) == [.headingUnreliable])
        // A fix alone does not bring guidance back; a fresh heading does.
        _ = navigator.receive(Self.fix(), at: 1.5)
        #expect(navigator.state == .noHeading)
        _ = navigator.receive(Self.heading(Self.bearing), at: 1.6)
        #expect(navigator.state == .guiding)
        #expect(navigator.cue != nil)
    }

    @Test("after the daemon stalled 20 s, no warning for readings old only because nothing ran; one still missing after settling is warned of (issue 30, item 17)")
    func stall() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        for tenth in 0...50 {
            let seconds = Double(tenth) / 10
            if tenth % 10 == 0 { _ = navigator.receive(Self.fix(), at: seconds) }
            _ = navigator.receive(Self.heading(Self.bearing), at: seconds)
        }
        #expect(navigator.state == .guiding)
        // Stopped from 5 s to 25 s: the first event after is a fix, with the heading 20 s old.
        var played = Self.patterns(navigator.receive(Self.fix(), at: 25))
        #expect(navigator.state == .noHeading)
        // The sensors answer within 0.2 s: guiding again, and nothing was played.
        played += Self.patterns(navigator.receive(Self.heading(Self.bearing), at: 25.2))
        #expect(navigator.state == .guiding)
        #expect(played.isEmpty, "\(played)")
        // Stalled again, and this time the IMU stays silent: warned once settling is over.
        for tenth in 0...60 {
            let seconds = 50 + Double(tenth) / 10
            if tenth % 10 == 0 { played += Self.patterns(navigator.receive(Self.fix(), at: seconds)) }
            played += Self.patterns(navigator.tick(at: seconds))
        }
        #expect(played == [.headingUnreliable], "\(played)")
    }

    @Test("an unreliable heading stops guidance with its own warning; a poor fix counts as no fix")
    func unreliable() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: -5)
        _ = navigator.receive(Self.fix(), at: 0)
        _ = navigator.receive(Self.heading(Self.bearing), at: 0.1)
        let actions = navigator.receive(Self.heading(Self.bearing, reliable: false), at: 0.2)
        #expect(navigator.state == .noHeading)
        #expect(Self.cues(actions) == [nil])
        #expect(Self.patterns(actions) == [.headingUnreliable])
        _ = navigator.receive(Self.heading(Self.bearing), at: 0.3)
        #expect(navigator.state == .guiding)
        _ = navigator.receive(Self.fix(eph: 80), at: 0.4)
        #expect(navigator.state == .noFix)
        #expect(navigator.cue == nil)
    }

    @Test("go with no fix at all: silent while settling, then gps-lost every 10 s until a fix comes")
    func goWithoutFix() {
        var navigator = Navigator()
        #expect(Self.patterns(navigator.setDestination(Self.there, at: 100)) == [.destinationAccepted])
        var played: [(Double, HapticPattern)] = []
        for tenth in 1...300 {
            let seconds = 100 + Double(tenth) / 10
            // Headings keep coming, as the IMU samples; no fix ever does.
            for pattern in Self.patterns(navigator.receive(Self.heading(Self.bearing), at: seconds)) {
                played.append((seconds, pattern))
            }
        }
        #expect(navigator.state == .noFix)
        #expect(played.map(\.1) == [.gpsLost, .gpsLost, .gpsLost], "\(played)")
        #expect(played.map { ($0.0 * 10).rounded() / 10 } == [103, 113, 123], "\(played)")
        _ = navigator.receive(Self.fix(), at: 130.1)
        _ = navigator.receive(Self.heading(Self.bearing), at: 130.2)
        #expect(navigator.state == .guiding)
        #expect(Self.patterns(navigator.tick(at: 131)).isEmpty)
    }

    @Test("a heading that flickers unreliable right after go plays no warning; one that stays unreliable does, once settled")
    func settling() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        _ = navigator.receive(Self.fix(), at: 0.1)
        var patterns = Self.patterns(navigator.receive(Self.heading(Self.bearing), at: 0.2))
        #expect(navigator.state == .guiding)
        // guiding → no-heading → guiding within the settling time: what the observed false
        // warning right after `accepted` was.
        patterns += Self.patterns(navigator.receive(Self.heading(Self.bearing, reliable: false), at: 0.8))
        #expect(navigator.state == .noHeading)
        #expect(navigator.cue == nil, "no cue without a heading, settling or not")
        patterns += Self.patterns(navigator.receive(Self.heading(Self.bearing), at: 1.5))
        #expect(navigator.state == .guiding)
        #expect(patterns.isEmpty)
        // Unreliable from 2 s on: the warning comes when settling ends, at 3 s.
        var late: [HapticPattern] = []
        for tenth in 20...40 {
            // The fix keeps coming: only the heading is missing.
            if tenth % 10 == 0 { late += Self.patterns(navigator.receive(Self.fix(), at: Double(tenth) / 10)) }
            late += Self.patterns(navigator.receive(Self.heading(Self.bearing, reliable: false), at: Double(tenth) / 10))
            if tenth < 30 { #expect(late.isEmpty, "at \(Double(tenth) / 10) s") }
        }
        #expect(late == [.headingUnreliable])
    }

    @Test("at the destination itself and after arrival, bearing and turn are unknown; the distance is kept")
    func bearingAtDestination() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.here, at: 0)
        _ = navigator.receive(Self.heading(10), at: 0.1)
        _ = navigator.receive(Self.fix(Self.here), at: 0.2)
        let course = navigator.course
        #expect(course != nil)
        #expect(course?.bearingDegrees == nil, "no bearing to where one stands: \(String(describing: course))")
        #expect(course?.errorDegrees == nil)
        #expect(course?.distanceMeters == 0)
        _ = navigator.receive(Self.fix(Self.here), at: 1.2)
        #expect(navigator.state == .arrived)
        // 10 m off after arriving: still arrived, and still no bearing or turn.
        let near = Coordinate(uncheckedLatitudeDegrees: 48.8584 + 0.00009, longitudeDegrees: 2.2945)
        _ = navigator.receive(Self.fix(near), at: 2.2)
        _ = navigator.receive(Self.heading(10), at: 2.3)
        #expect(navigator.state == .arrived)
        #expect(navigator.course?.bearingDegrees == nil)
        #expect(navigator.course?.errorDegrees == nil)
        #expect((navigator.course?.distanceMeters ?? 0) > 9)
    }

    @Test("arrival needs two consecutive fixes within max(radius, 2·eph); then silence and one arrival pattern")
    func arrival() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        // 10 m south of the destination: one fix is not enough.
        let near = Coordinate(uncheckedLatitudeDegrees: 48.8606 - 0.00009, longitudeDegrees: 2.3376)
        _ = navigator.receive(Self.heading(Self.bearing), at: 0.9)
        _ = navigator.receive(Self.fix(near), at: 1)
        #expect(navigator.state == .guiding)
        let second = navigator.receive(Self.fix(near), at: 2)
        #expect(navigator.state == .arrived)
        #expect(Self.patterns(second) == [.arrived])
        #expect(navigator.cue == nil)
        #expect(Self.patterns(navigator.receive(Self.fix(near), at: 3)).isEmpty, "played once")
        // A new destination after arriving: guiding again, not still "arrived".
        _ = navigator.receive(Self.heading(Self.bearing), at: 3.9)
        let onward = navigator.setDestination(Self.here, at: 4)
        #expect(navigator.state == .guiding)
        #expect(Self.patterns(onward) == [.destinationAccepted])
        _ = navigator.receive(Self.heading(Angle.normalized(Self.bearing + 180)), at: 4.5)
        #expect(navigator.cue != nil, "facing the new destination vibrates")
        // 100 m away but a 60 m error: 2·eph covers it.
        var navigator2 = Navigator()
        _ = navigator2.setDestination(Self.there, at: 0)
        let far = Coordinate(uncheckedLatitudeDegrees: 48.8606 - 0.0009, longitudeDegrees: 2.3376)
        var settings = Navigator.Settings()
        settings.maximumPositionErrorMeters = 100
        navigator2 = Navigator(settings: settings)
        _ = navigator2.setDestination(Self.there, at: 0)
        _ = navigator2.receive(Self.fix(far, eph: 60), at: 1)
        _ = navigator2.receive(Self.fix(far, eph: 60), at: 2)
        #expect(navigator2.state == .arrived)
    }

    @Test("the zone widens to atan(eph/distance), capped at 60°; mute silences cues and patterns")
    func zoneAndMute() {
        var navigator = Navigator()
        _ = navigator.setDestination(Self.there, at: 0)
        // 40 m from the destination with eph 30 m: atan(30/40) = 36.87°.
        let close = Coordinate(uncheckedLatitudeDegrees: 48.8606 - 0.00036, longitudeDegrees: 2.3376)
        _ = navigator.receive(Self.fix(close, eph: 30), at: 0)
        let bearing = navigator.course!.bearingDegrees!
        _ = navigator.receive(Self.heading(bearing - 30), at: 0.1)
        #expect(navigator.course!.zoneDegrees > 36 && navigator.course!.zoneDegrees < 37.5)
        #expect(navigator.cue != nil, "30° off is inside the widened zone")
        let muted = navigator.setMuted(true, at: 0.2)
        #expect(Self.cues(muted) == [nil])
        #expect(Self.patterns(navigator.setDestination(Self.there, at: 0.3)).isEmpty)
        #expect(navigator.cue == nil)
    }
}
