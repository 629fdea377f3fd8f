import Geodesy
import Geomagnetism
import Guidance
import Heading

/// Everything between a sensor event and what the wearer should feel: the heading pipeline,
/// the magnetic model at the current place and the navigator. The same code serves the live
/// daemon and `waypointd replay`, so a recording replays exactly as it ran.
public struct NavigationPipeline: Sendable {
    /// What the pipeline concluded after one IMU sample.
    public struct Output: Sendable, Equatable {
        public var seconds: Double
        public var state: String
        public var headingDegrees: Double?
        public var bearingDegrees: Double?
        public var distanceMeters: Double?
        public var errorDegrees: Double?
        public var intensity: Double?
        public var sharpness: Double?
        /// How the magnetometer bears on the heading: `magnetic`, `coasting` or `none`.
        public var correction: String?
    }

    /// Move this far before the magnetic model is evaluated again, metres.
    static let modelRefreshDistanceMeters = 1000.0
    /// Or this long, seconds.
    static let modelRefreshSeconds = 3600.0

    private var estimator: HeadingEstimator
    private var courseAssist: CourseAssist
    /// The latest reliable compass heading before the course assist's correction.
    private var compassDegrees: Double?
    /// The guidance state machine.
    public private(set) var navigator: Navigator
    /// The latest fix.
    public private(set) var fix: Fix?
    private var model: HeadingEstimator.ModelField?
    /// How far a compass can be trusted here (WMM2025's zones); nil before the first fix.
    public private(set) var compassZone: CompassZone?
    private var modelPlace: Coordinate?
    private var modelTime: Double = -.infinity
    private var lastIMUSeconds: Double?
    /// The latest heading estimate.
    public private(set) var lastHeading: HeadingEstimate?

    /// The declination to apply instead of the model's, degrees east (the config's
    /// `declination`); nil for WMM2025's.
    private let fixedDeclinationDegrees: Double?

    /// A pipeline with the given settings and no history.
    public init(
        heading: HeadingEstimator.Settings = .init(), navigation: Navigator.Settings = .init(),
        calibration: MagneticCalibration? = nil, fixedDeclinationDegrees: Double? = nil,
        courseAssist: CourseAssist = CourseAssist()
    ) {
        estimator = HeadingEstimator(settings: heading, calibration: calibration)
        self.courseAssist = courseAssist
        navigator = Navigator(settings: navigation)
        self.fixedDeclinationDegrees = fixedDeclinationDegrees
    }

    /// Takes one event; returns the navigator's actions, and an output for each IMU sample.
    public mutating func handle(_ event: RecordingEvent) -> (actions: Navigator.Actions, output: Output?) {
        switch event.kind {
        case .calibration(let calibration):
            estimator.calibration = calibration
            // The bias corrected what the old calibration left over.
            courseAssist.reset()
            return (navigator.tick(at: event.seconds), nil)
        case .muted(let muted):
            return (navigator.setMuted(muted, at: event.seconds), nil)
        case .destination(let coordinate, _):
            let actions = coordinate.map { navigator.setDestination($0, at: event.seconds) }
                ?? navigator.clearDestination(at: event.seconds)
            return (actions, nil)
        case .fix(let newFix):
            fix = newFix
            refreshModel(at: event.seconds)
            courseAssist.observeFix(
                speedMetersPerSecond: newFix.speedMetersPerSecond, trackDegrees: newFix.trackDegrees,
                trackErrorDegrees: newFix.trackErrorDegrees, headingDegrees: compassDegrees, at: event.seconds)
            return (navigator.receive(newFix, at: event.seconds), nil)
        case .imu(let sample):
            let seconds = lastIMUSeconds.map { event.seconds - $0 } ?? 0
            lastIMUSeconds = event.seconds
            var estimate = estimator.update(sample, seconds: seconds, model: model)
            // Without the model there is no declination: the heading cannot be a true one.
            if model == nil {
                estimate.trueDegrees = nil
                estimate.problem = estimate.problem ?? .noSolution
            }
            if compassZone == .blackout { estimate.problem = .magneticBlackout }
            compassDegrees = estimate.isReliable ? estimate.trueDegrees : nil
            courseAssist.observeHeading(compassDegrees, at: event.seconds)
            if let compass = estimate.trueDegrees, courseAssist.biasDegrees != 0 {
                estimate.trueDegrees = Angle.normalized(compass + courseAssist.biasDegrees)
            }
            lastHeading = estimate
            let actions = navigator.receive(estimate, at: event.seconds)
            return (actions, output(at: event.seconds))
        }
    }

    /// Guides to a destination with its own arrival radius, announced by `pattern`: a place,
    /// a route's waypoint. The recording holds it as a `destination` event (at the default
    /// radius when replayed).
    public mutating func guide(
        to coordinate: Coordinate, arrivalRadiusMeters: Double?, announcing pattern: HapticPattern, at seconds: Double
    ) -> Navigator.Actions {
        navigator.setDestination(coordinate, arrivalRadiusMeters: arrivalRadiusMeters, announcing: pattern, at: seconds)
    }

    /// Time passing without events: stale fixes, repeated warnings.
    public mutating func tick(at seconds: Double) -> Navigator.Actions { navigator.tick(at: seconds) }

    /// The correction the course assist adds to the compass heading, degrees.
    public var courseBiasDegrees: Double { courseAssist.biasDegrees }

    /// The total intensity of Earth's field here, from WMM2025, microtesla: what a
    /// calibration is scaled to. Nil before the first fix with a date.
    public var modelFieldMicrotesla: Double? { model?.totalIntensityMicrotesla }

    /// The field's inclination here from WMM2025, degrees, positive down; nil before the first
    /// fix with a date.
    public var modelInclinationDegrees: Double? { model?.inclinationDegrees }

    private func output(at seconds: Double) -> Output {
        let course = navigator.course
        let guiding = navigator.state == .guiding
        return Output(
            seconds: seconds, state: navigator.state.rawValue, headingDegrees: lastHeading?.trueDegrees,
            bearingDegrees: course?.bearingDegrees, distanceMeters: course?.distanceMeters,
            errorDegrees: guiding ? course?.errorDegrees : nil,
            intensity: guiding ? navigator.cue?.intensity ?? 0 : nil,
            sharpness: guiding ? navigator.cue?.sharpness ?? 0 : nil, correction: lastHeading?.correction.rawValue)
    }

    /// Re-evaluates WMM2025 when the wearer has moved far enough or enough time has passed,
    /// at the fix's date (the recording's own time, so replay is deterministic).
    private mutating func refreshModel(at seconds: Double) {
        guard let fix, let here = fix.coordinate else { return }
        if let place = modelPlace, model != nil, seconds - modelTime < Self.modelRefreshSeconds {
            let moved = Geodesic.wgs84.inverse(from: place, to: here).distanceMeters
            if moved < Self.modelRefreshDistanceMeters { return }
        }
        guard let year = fix.time?.decimalYear else { return }
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: here.latitudeDegrees, longitudeDegrees: here.longitudeDegrees,
            heightAboveEllipsoidKilometers: (fix.altitudeHAEMeters ?? 0) / 1000, decimalYear: year)
        model = HeadingEstimator.ModelField(
            declinationDegrees: fixedDeclinationDegrees ?? field.declinationDegrees, totalIntensityMicrotesla: field.totalIntensityNanotesla / 1000,
            inclinationDegrees: field.inclinationDegrees)
        compassZone = field.zone
        modelPlace = here
        modelTime = seconds
    }
}
