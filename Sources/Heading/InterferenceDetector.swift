/// Flags magnetic interference: the calibrated field's strength or dip departing from what the
/// World Magnetic Model says for the place. A parked car, a steel railing or a magnet bends the
/// field; the compass then points wrong with full confidence, so the heading is marked
/// unreliable instead.
///
/// The score is √((ΔF/F)² + ΔI²) (ΔI in radians), smoothed over `smoothingTimeConstant`. A
/// 15 µT magnet near a 50 µT field scores at least about 0.09 whatever its direction; model
/// error and crustal anomalies stay near 0.01 (reference/geomagnetism-geodesy.md §2).
public struct InterferenceDetector: Sendable {
    /// Thresholds and timing, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// Flag above this score. Default 0.07.
        public var raiseScore = 0.07
        /// Clear below this score. Default 0.05 (hysteresis against flicker).
        public var clearScore = 0.05
        /// Smoothing of the score, seconds. Default 0.2 s.
        public var smoothingTimeConstant = 0.2
        /// The score must stay below `clearScore` this long to clear. Default 0.8 s.
        public var clearAfterSeconds = 0.8

        /// The defaults.
        public init() {}
    }

    public let settings: Settings
    /// Whether interference is flagged now.
    public private(set) var isFlagged = false
    /// The smoothed score.
    public private(set) var score = 0.0
    private var quietSeconds = 0.0
    private var started = false

    /// A detector with nothing flagged.
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Takes one measurement.
    /// - Parameters:
    ///   - fieldMicrotesla: the calibrated field's strength.
    ///   - inclinationDegrees: its dip from the gravity estimate.
    ///   - modelFieldMicrotesla: WMM's F at the place.
    ///   - modelInclinationDegrees: WMM's I at the place.
    ///   - seconds: time since the previous measurement.
    public mutating func update(
        fieldMicrotesla: Double, inclinationDegrees: Double, modelFieldMicrotesla: Double,
        modelInclinationDegrees: Double, seconds: Double
    ) {
        let strength = (fieldMicrotesla - modelFieldMicrotesla) / modelFieldMicrotesla
        let dip = (inclinationDegrees - modelInclinationDegrees) * .pi / 180
        var raw = (strength * strength + dip * dip).squareRoot()
        if !raw.isFinite { raw = 1 }
        if !started {
            score = raw
            started = true
        } else {
            score += (raw - score) * (seconds / (settings.smoothingTimeConstant + max(seconds, 0)))
        }
        if score > settings.raiseScore {
            isFlagged = true
            quietSeconds = 0
        } else if isFlagged && score < settings.clearScore {
            quietSeconds += seconds
            if quietSeconds >= settings.clearAfterSeconds { isFlagged = false }
        } else {
            quietSeconds = 0
        }
    }
}
