import ControlProtocol
import Core
import Geodesy
import Geomagnetism
import Guidance
import Haptics
import Heading

/// The wire's replies built from a copy of the state: the pure state answers in its own terms
/// (``DaemonState/Answer``), and this is where that becomes `STATUS`, `ROUTE`, `CALIBRATION` and
/// the rest, with the motor's own readings added.
public enum DaemonReplies {
    /// The reply to a request that was carried out.
    ///
    /// - Parameters:
    ///   - answer: What the state answered.
    ///   - state: The state right after the request.
    ///   - seconds: When, on the executor's clock.
    ///   - motor: What the player is doing now.
    public static func reply(_ answer: DaemonState.Answer, state: DaemonState, at seconds: Double, motor: any MotorOutput)
        -> ControlReply
    {
        switch answer {
        case .ok: .ok
        case .status: .status(status(of: state, at: seconds, motor: motor))
        case .recent: .recent(state.recent.map(destination))
        case .places: .places(state.places.map(destination))
        case .route: .route(route(of: state, withSteps: true))
        case .calibration(let note): .calibration(calibration(of: state, note: note))
        case .placeMarked(let place, let errorMeters, let fixes):
            .placeMarked(PlaceMarkReport(place: destination(place), errorMeters: tenths(errorMeters), fixes: fixes))
        case .trackPage(let page):
            .track(TrackReport(points: page.points.map(point), next: page.next?.text))
        }
    }

    /// The `STATUS` reply at `seconds`, with what the motor is doing now.
    public static func status(of state: DaemonState, at seconds: Double, motor: any MotorOutput) -> StatusReport {
        status(of: state, at: seconds, duty: motor.duty, pattern: motor.pattern, motorFault: motor.faultDescription)
    }

    /// The `STATUS` reply at `seconds`.
    ///
    /// - Parameters:
    ///   - duty: The duty last written to the motor, 0…1.
    ///   - pattern: The pattern playing, if one is.
    ///   - motorFault: Why the motor cannot be driven now, if it cannot.
    public static func status(
        of state: DaemonState, at seconds: Double, duty: Double = 0, pattern: HapticPattern? = nil, motorFault: String? = nil
    ) -> StatusReport {
        let pipeline = state.pipeline
        let navigator = pipeline.navigator
        let standing = navigator.fixStanding(at: max(seconds, state.lastSeconds))
        let fix = pipeline.fix.map {
            StatusReport.Fix(
                time: $0.time?.iso8601, mode: $0.mode.rawValue, latitude: $0.coordinate?.latitudeDegrees,
                longitude: $0.coordinate?.longitudeDegrees, horizontalErrorMeters: $0.horizontalErrorMeters,
                altitudeMSLMeters: $0.altitudeMSLMeters, altitudeHAEMeters: $0.altitudeHAEMeters,
                ageSeconds: standing.map { tenths($0.ageSeconds) }, problem: standing?.problem?.rawValue)
        }
        // A heading nobody is measuring is not shown at all: no IMU, or one that stopped answering.
        let heading =
            state.imuProblem != nil || state.imuSilentSinceSeconds != nil
            ? StatusReport.Heading(isReliable: false, problem: "no-imu")
            : pipeline.lastHeading.map {
                StatusReport.Heading(
                    trueDegrees: $0.trueDegrees, magneticDegrees: $0.magneticDegrees,
                    declinationDegrees: $0.declinationDegrees, isReliable: $0.isReliable,
                    biasDegrees: pipeline.courseBiasDegrees, correction: $0.correction.rawValue,
                    coastingSeconds: $0.coastingSeconds, problem: $0.problem?.rawValue)
            } ?? StatusReport.Heading()
        var problems = state.startProblems
        if let imuProblem = state.imuProblem { problems.append("imu: \(imuProblem); trying again") }
        if let since = state.imuSilentSinceSeconds {
            let silent = DecimalFormat.fixed(max(0, seconds - since), fractionDigits: 0)
            problems.append("imu: not answering for \(silent) s; trying again")
        }
        if heading.problem == HeadingEstimate.Problem.notCalibrated.rawValue {
            problems.append("compass: not calibrated; run: waypointctl calibrate start")
        }
        if let gpsProblem = state.gpsProblem { problems.append("gps: \(gpsProblem); trying again") }
        problems += zoneProblems(pipeline.compassZone)
        if let motorFault { problems.append("motor: \(motorFault); retrying") }
        return StatusReport(
            state: navigator.state.rawValue, fix: fix, heading: heading,
            // With the radius in effect, its own or the configured one: what arrival is judged by.
            destination: state.currentDestination.map {
                var report = destination($0)
                report.radiusMeters = navigator.destinationRadiusMeters
                return report
            },
            bearingDegrees: navigator.course?.bearingDegrees, distanceMeters: navigator.course?.distanceMeters,
            // No turn from a heading the daemon does not trust (every client shows none either).
            errorDegrees: heading.isReliable ? navigator.course?.errorDegrees : nil,
            haptic: StatusReport.Haptic(
                intensity: navigator.cue?.intensity, sharpness: navigator.cue?.sharpness, duty: duty, pattern: pattern?.rawValue,
                zoneDegrees: navigator.course.map { tenths($0.zoneDegrees) }, mode: navigator.settings.rule.mode.rawValue),
            calibration: state.calibrationState, isMuted: state.isMuted, imu: state.imuProblem == nil ? state.imu.map(Self.report) : nil,
            problems: problems, route: route(of: state))
    }

    /// What WMM2025's zones say about the compass here.
    private static func zoneProblems(_ zone: CompassZone?) -> [String] {
        switch zone {
        case .blackout:
            ["compass: near a magnetic pole (WMM2025 blackout zone, horizontal field under 2000 nT): no heading can be trusted here"]
        case .caution:
            ["compass: close to a magnetic pole (WMM2025 caution zone, horizontal field under 6000 nT): the heading may be degraded"]
        case .normal, nil: []
        }
    }

    /// Where the route stands, for `STATUS` and `ROUTE`; nil without one.
    /// - Parameter withSteps: Whether a walk lists the turns still ahead (`ROUTE`), not only
    ///   the next (`STATUS`, up to ten times a second).
    public static func route(of state: DaemonState, withSteps: Bool = false) -> RouteReport? {
        guard let route = state.target.route, let target = state.currentDestination else { return nil }
        let follower = route.follower
        let here = state.pipeline.fix?.coordinate
        let remaining = here.map { tenths(follower.remainingMeters(from: $0)) }
        return RouteReport(
            name: route.name, waypoint: min(follower.index + 1, follower.waypoints.count), count: follower.waypoints.count,
            target: destination(target), remainingMeters: remaining, isFinished: follower.isFinished,
            walk: route.walk.map { walk($0, follower: follower, here: here, remaining: remaining, withSteps: withSteps) })
    }

    /// A walk's report: the next turn from `here` along the way, and the turns after it.
    private static func walk(
        _ walk: DaemonState.ActiveWalk, follower: RouteFollower, here: Coordinate?, remaining: Double?, withSteps: Bool
    ) -> WalkReport {
        let progress = walk.progress
        let turns = progress.plan.turns
        let next = follower.isFinished ? nil : progress.nextTurn(waypoint: follower.index)
        let toNext = next.flatMap { turn in here.map { progress.metersToTurn(turn, from: $0, waypoint: follower.index) } }
        var steps: [TurnReport]?
        if withSteps, let next {
            steps = turns[next...].enumerated().map { offset, turn in
                WalkPlanning.turn(turn, distanceMeters: offset == 0 ? (toNext ?? turn.distanceMeters) : turn.distanceMeters)
            }
        } else if withSteps {
            steps = []
        }
        return WalkReport(
            profile: walk.profile, next: next.flatMap { turn in toNext.map { WalkPlanning.turn(turns[turn], distanceMeters: $0) } },
            remainingMeters: remaining, replans: progress.replans, offPathMeters: progress.offPathMeters.map(tenths),
            problem: walk.problem, steps: steps)
    }

    /// The `CALIBRATION` reply.
    public static func calibration(of state: DaemonState, note: DaemonState.CalibrationNote?) -> CalibrationReport {
        let saved = state.calibration.saved
        let quality = saved.map {
            CalibrationReport.Quality(
                fitErrorPercent: $0.quality.fitErrorPercent, coveragePercent: $0.quality.coveragePercent,
                fittedFieldMicrotesla: $0.quality.fittedFieldMicrotesla,
                referenceFieldMicrotesla: $0.quality.referenceFieldMicrotesla, sampleCount: $0.quality.sampleCount)
        }
        let fit = state.calibrationFit
        let reference = state.pipeline.modelFieldMicrotesla
        let counts = fit?.octantCounts
        return CalibrationReport(
            state: state.calibrationState, samples: fit?.count, octants: counts,
            quality: quality, created: saved?.createdAt.iso8601, message: note.map(message),
            missing: counts.map {
                CalibrationFit.missingDirections(octantCounts: $0, inclinationDegrees: state.pipeline.modelInclinationDegrees)
            },
            // A trial of `finish`: it needs WMM2025's field here to scale to.
            isReady: fit.map { fit in reference.map { (try? fit.fit(referenceFieldMicrotesla: $0)) != nil } ?? false })
    }

    private static func message(_ note: DaemonState.CalibrationNote) -> String {
        switch note {
        case .started: "turn the device slowly through a figure-eight, every side up and down, for about 30 s; then finish"
        case .alreadyCollecting: "already collecting; keep turning, then finish"
        case .cancelled: "cancelled; the calibration in use is unchanged"
        case .stored: "calibration stored and in use"
        case .reset: "calibration forgotten; the heading is unreliable until you calibrate"
        }
    }

    /// A destination on the wire.
    public static func destination(_ destination: SavedDestination) -> DestinationReport {
        DestinationReport(
            latitude: destination.coordinate.latitudeDegrees, longitude: destination.coordinate.longitudeDegrees,
            name: destination.name, radiusMeters: destination.arrivalRadiusMeters)
    }

    private static func point(_ point: TrailPoint) -> TrackReport.Point {
        TrackReport.Point(
            seconds: point.utcSeconds, latitude: point.coordinate.latitudeDegrees, longitude: point.coordinate.longitudeDegrees,
            elevationMeters: point.elevationMeters, horizontalErrorMeters: point.horizontalErrorMeters, hdop: point.hdop,
            satellites: point.satellites, startsSegment: point.startsSegment)
    }

    /// A figure as the replies carry it: to a tenth (metres, seconds, degrees), no false
    /// precision on the wire.
    /// The IMU's counters as `STATUS` carries them.
    static func report(_ imu: IMUInUse) -> StatusReport.IMU {
        StatusReport.IMU(
            chips: imu.chips, samples: imu.samples, transferErrors: imu.transferErrors, faults: imu.faults, restarts: imu.restarts)
    }

    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    /// Degrees to 1e-7 (1 cm), as the place index keeps them.
    static func degrees(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 }
}
