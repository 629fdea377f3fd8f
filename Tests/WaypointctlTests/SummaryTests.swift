import ClientSupport
import ControlProtocol
import Testing

@testable import waypointctl

/// What `status`, `recent`, `calibrate` and plain `watch` print: plain `label: value` lines a
/// screen reader reads well, with units and compass names.
@Suite("Summaries for people", .timeLimit(.minutes(5)))
struct SummaryTests {
    @Test("status while guiding: every fact on its own line")
    func statusGuiding() {
        let lines = StatusSummary.lines(for: ReplyDecodingTests.fullStatus)
        #expect(
            lines == [
                "state: guiding",
                "heading: 292° (WNW, west-northwest)",
                "destination: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E",
                "distance: 432 m",
                "bearing: 316° (NW, northwest)",
                "turn: 24° right",
                "fix: 3D, estimated error 4.8 m, 0 s old (too imprecise to guide)",
                "position: 48°51'20.2\"N 2°17'55.0\"E (last known)",
                "elevation: 35 m above sea level (last known)",
                "motor: playing accepted, duty 48%",
                "imu: LSM9DS1 magnetometer at 0x1C, accelerometer at 0x6A, 3 read errors",
                "calibration: stored",
                "muted: no",
                "problem: no \"gps\" / fix",
                "problem: tab\there",
            ])
    }

    @Test("status shows the arrival radius the daemon judges arrival by")
    func statusRadius() {
        var status = ReplyDecodingTests.fullStatus
        status.destination?.radiusMeters = 15
        #expect(StatusSummary.lines(for: status).contains("destination: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E (arrival within 15 m)"))
    }

    @Test("status on a route: which waypoint of how many, and the distance to the end")
    func statusOnRoute() {
        var status = ReplyDecodingTests.fullStatus
        status.route = RouteReport(
            name: "Seine walk", waypoint: 2, count: 5, target: DestinationReport(latitude: 48.8584, longitude: 2.2945),
            remainingMeters: 1234, isFinished: false)
        #expect(StatusSummary.lines(for: status).contains("route: Seine walk, waypoint 2 of 5, 1.23 km to the end"))
        status.route?.isFinished = true
        status.route?.name = nil
        #expect(StatusSummary.lines(for: status).contains("route: waypoint 2 of 5, finished"))
    }

    @Test("status when idle and unknown: no destination lines, and 'unknown' rather than a blank")
    func statusIdle() {
        #expect(
            StatusSummary.lines(for: StatusReport(state: "idle")) == [
                "state: idle (no destination)",
                "heading: unknown",
                "destination: none",
                "fix: none",
                "motor: off",
                "calibration: unknown",
                "muted: unknown",
            ])
        var noFix = StatusReport(
            state: "no-fix", heading: .init(trueDegrees: 359.7, isReliable: false),
            destination: .init(latitude: -33.8568, longitude: 151.2153, name: nil),
            haptic: .init(intensity: 0, duty: 0), calibration: "none", isMuted: true)
        noFix.fix = .init(time: nil, mode: 1, latitude: nil, longitude: nil, horizontalErrorMeters: nil)
        #expect(
            StatusSummary.lines(for: noFix) == [
                "state: no-fix (no usable GPS fix)",
                "heading: unknown (unreliable)",
                "destination: 33°51'24.5\"S 151°12'55.1\"E",
                "distance: unknown",
                "bearing: unknown",
                "turn: unknown",
                "fix: none",
                "motor: off (muted)",
                "calibration: none",
                "muted: yes",
            ])
    }

    @Test(
        "status has no decoration: only label, colon, value",
        arguments: [ReplyDecodingTests.fullStatus, StatusReport(state: "idle")])
    func plain(_ status: StatusReport) {
        for line in StatusSummary.lines(for: status) {
            let parts = line.split(separator: ":", maxSplits: 1)
            #expect(parts.count == 2 && parts[0].allSatisfy { $0.isLetter || $0 == " " }, "\(line)")
            #expect(
                !line.contains("  ") && !line.contains("#") && !line.contains("*") && !line.contains("|"), "\(line)")
        }
    }

    @Test("turns: right is positive, whole degrees, on course and behind")
    func turns() {
        #expect(Presentation.turn(errorDegrees: 12.4) == "12° right")
        #expect(Presentation.turn(errorDegrees: -3.6) == "4° left")
        #expect(Presentation.turn(errorDegrees: 0.4) == "on course")
        #expect(Presentation.turn(errorDegrees: -0.4) == "on course")
        #expect(Presentation.turn(errorDegrees: 180) == "180°, behind")
        #expect(Presentation.turn(errorDegrees: -179.6) == "180°, behind")
        #expect(Presentation.direction(degrees: 359.6) == "0° (N, north)")
        #expect(Presentation.direction(degrees: 202.5) == "203° (SSW, south-southwest)")
    }

    @Test("recent destinations are numbered from 1, as go --recent takes them")
    func recent() {
        #expect(RecentList.lines(for: []) == ["no recent destinations"])
        #expect(
            RecentList.lines(for: [
                .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower"),
                .init(latitude: 48.853, longitude: 2.3499, name: nil),
            ]) == [
                "1: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E",
                "2: 48°51'10.8\"N 2°20'59.6\"E",
            ])
    }

    @Test("calibration: state, samples, the directions still missing in words, readiness, quality and message")
    func calibration() {
        #expect(
            CalibrationSummary.lines(
                for: CalibrationReport(
                    state: "running", samples: 412, octants: [60, 48, 51, 50, 55, 49, 2, 52],
                    message: "keep turning", missing: ["tilt it nose-down and to the left"], isReady: false)) == [
                    "calibration: running (turn the device slowly through a figure eight)",
                    "samples: 412",
                    "missing: tilt it nose-down and to the left",
                    "ready: not yet",
                    "message: keep turning",
                ])
        #expect(
            CalibrationSummary.lines(
                for: CalibrationReport(state: "running", samples: 900, octants: [60, 48, 51, 50, 55, 49, 47, 52], missing: [], isReady: true))
                == [
                    "calibration: running (turn the device slowly through a figure eight)",
                    "samples: 900",
                    "ready: yes (run: waypointctl calibrate finish)",
                ])
        #expect(
            CalibrationSummary.lines(
                for: CalibrationReport(
                    state: "stored",
                    quality: .init(
                        fitErrorPercent: 1.23, coveragePercent: 84.6, fittedFieldMicrotesla: 48.14,
                        referenceFieldMicrotesla: 47.9, sampleCount: 412),
                    created: "2026-05-01T12:00:00Z")) == [
                    "calibration: stored (in use)",
                    "quality: fit error 1.2%, coverage 85%, field 48.1 µT scaled to 47.9 µT, 412 samples",
                    "created: 2026-05-01T12:00:00Z",
                ])
        #expect(
            CalibrationSummary.lines(for: CalibrationReport(state: "none"))
                == ["calibration: none (the heading is unreliable until one is made)"])
    }

    @Test("watch without a terminal: one line per update")
    func watchLine() {
        #expect(
            WatchLine.text(for: CompassFrameTests.guiding(headingDegrees: 45))
                == "guiding; heading 45° NE; Eiffel Tower 1.24 km at 62° ENE, 17° right; motor 55%")
        #expect(WatchLine.text(for: StatusReport(state: "idle")) == "idle; heading unknown; no destination; motor off")
        #expect(
            WatchLine.text(for: StatusReport(state: "no-fix", heading: .init(trueDegrees: 10), isMuted: true))
                == "no-fix; heading unknown; no destination; motor muted")
    }

    @Test("the socket: --socket, else $WAYPOINT_SOCKET, else the daemon's default")
    func socketPath() {
        #expect(SocketPath.resolve(option: "/a", environment: "/b") == "/a")
        #expect(SocketPath.resolve(option: nil, environment: "/b") == "/b")
        #expect(SocketPath.resolve(option: nil, environment: "") == "/run/waypointd/control.sock")
        #expect(SocketPath.resolve(option: nil, environment: nil) == "/run/waypointd/control.sock")
    }

    @Test("a daemon of another protocol version gets a warning naming both versions")
    func versionWarning() {
        #expect(DaemonSession.versionWarning(for: VersionGreeting()) == nil)
        #expect(
            DaemonSession.versionWarning(for: VersionGreeting(release: "2.0.0", protocolVersion: 2))
                == "warning: waypointd (release 2.0.0) speaks control protocol 2; this waypointctl (release 0.1.0) "
                + "speaks 1. Some replies may be misread; install matching versions.")
    }
}
