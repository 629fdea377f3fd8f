import Geodesy
import Geomagnetism
import Guidance
import Heading

/// Everything between a sensor event and what the wearer should feel: the heading pipeline,
/// the magnetic model at the current place, the bearing and distance to the destination and
/// the haptic rule. The same code serves the live daemon and `waypointd replay`, so a
/// recording replays exactly as it ran.
///
/// The guidance state machine proper (arrival, warnings, fix timeouts) is the navigator of the
/// daemon issue; this first version reports `idle`, `no-fix`, `no-heading` and `guiding`.
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
    }

    /// Move this far before the magnetic model is evaluated again, metres.
    static let modelRefreshDistanceMeters = 1000.0
    /// Or this long, seconds.
    static let modelRefreshSeconds = 3600.0

    private var estimator: HeadingEstimator
    private let rule: HapticRule
    private var fix: Fix?
    private var destination: Coordinate?
    private var model: HeadingEstimator.ModelField?
    private var modelPlace: Coordinate?
    private var modelTime: Double = -.infinity
    private var lastIMUSeconds: Double?

    /// A pipeline with the given settings and no history.
    public init(heading: HeadingEstimator.Settings = .init(), rule: HapticRule = HapticRule(),
                calibration: MagneticCalibration? = nil) {
        estimator = HeadingEstimator(settings: heading, calibration: calibration)
        self.rule = rule
    }

    /// Takes one event; returns an output for each IMU sample.
    public mutating func handle(_ event: RecordingEvent) -> Output? {
        switch event.kind {
        case .calibration(let calibration):
            estimator.calibration = calibration
            return nil
        case .destination(let coordinate, _):
            destination = coordinate
            return nil
        case .fix(let newFix):
            fix = newFix
            refreshModel(at: event.seconds)
            return nil
        case .imu(let sample):
            let seconds = lastIMUSeconds.map { event.seconds - $0 } ?? 0
            lastIMUSeconds = event.seconds
            let estimate = estimator.update(sample, seconds: seconds, model: model)
            return output(estimate, at: event.seconds)
        }
    }

    private func output(_ estimate: HeadingEstimate, at seconds: Double) -> Output {
        var output = Output(seconds: seconds, state: "idle")
        output.headingDegrees = model == nil ? nil : estimate.trueDegrees
        guard let destination else { return output }
        guard let fix, let here = fix.coordinate else {
            output.state = "no-fix"
            return output
        }
        let path = Geodesic.wgs84.inverse(
            latitude1Degrees: here.latitudeDegrees, longitude1Degrees: here.longitudeDegrees,
            latitude2Degrees: destination.latitudeDegrees, longitude2Degrees: destination.longitudeDegrees)
        output.bearingDegrees = Angle.normalized(path.initialAzimuthDegrees)
        output.distanceMeters = path.distanceMeters
        guard estimate.isReliable, let heading = output.headingDegrees, let bearing = output.bearingDegrees else {
            output.state = "no-heading"
            return output
        }
        output.state = "guiding"
        let error = Angle.signedDifference(from: heading, to: bearing)
        output.errorDegrees = error
        let cue = rule.cue(alignmentErrorDegrees: error)
        output.intensity = cue?.intensity ?? 0
        output.sharpness = cue?.sharpness ?? 0
        return output
    }

    /// Re-evaluates WMM2025 when the wearer has moved far enough or enough time has passed,
    /// at the fix's date (the recording's own time, so replay is deterministic).
    private mutating func refreshModel(at seconds: Double) {
        guard let fix, let here = fix.coordinate else { return }
        if let place = modelPlace, model != nil, seconds - modelTime < Self.modelRefreshSeconds {
            let moved = Geodesic.wgs84.inverse(
                latitude1Degrees: place.latitudeDegrees, longitude1Degrees: place.longitudeDegrees,
                latitude2Degrees: here.latitudeDegrees, longitude2Degrees: here.longitudeDegrees).distanceMeters
            if moved < Self.modelRefreshDistanceMeters { return }
        }
        guard let year = fix.time?.decimalYear else { return }
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: here.latitudeDegrees, longitudeDegrees: here.longitudeDegrees,
            heightAboveEllipsoidKilometers: (fix.altitudeHAEMeters ?? 0) / 1000, decimalYear: year)
        model = HeadingEstimator.ModelField(
            declinationDegrees: field.declinationDegrees, totalIntensityMicrotesla: field.totalIntensityNanotesla / 1000,
            inclinationDegrees: field.inclinationDegrees)
        modelPlace = here
        modelTime = seconds
    }
}
