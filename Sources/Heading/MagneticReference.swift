#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an undisturbed magnetic field looks like here, learnt from the calibrated field itself,
/// and whether the field now departs from it: a parked car, a steel railing or a magnet bends
/// the field, and the compass then points wrong with full confidence.
///
/// The reference starts as the World Magnetic Model's strength F and dip I at the place (the
/// calibration scales the field to F) and then follows what the magnetometer measures while the
/// field is undisturbed: buildings, pavements and the wearer's own body shift the local field
/// by several µT and degrees, which the model cannot know and which must not stop guidance. A
/// departure is scored as √((ΔF/F)² + ΔI²) (ΔI in radians) from the reference. A new field that
/// stays steady in strength and dip while the device turns (a field that only bends near iron
/// changes as the device turns within it) becomes the reference. (After VQF's magnetic
/// disturbance rejection, Laidig and Seel 2023, §3.5.)
public struct MagneticReference: Sendable {
    /// Thresholds and timing, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// Time constant of the measured strength and dip before they are compared, seconds.
        /// Default 0.05 s: smooths one sample's noise and little more.
        public var measurementTimeConstantSeconds = 0.05
        /// Time constant with which an undisturbed field trains the reference, seconds.
        /// Default 20 s.
        public var learningTimeConstantSeconds = 20.0
        /// Flag a disturbance above this score (1: at the tolerance). Default 1.
        public var raiseScore = 1.0
        /// The score must stay under this for `clearSeconds` to clear. Default 0.7.
        public var clearScore = 0.7
        /// Seconds under `clearScore` before a disturbance clears. Default 0.5 s.
        public var clearSeconds = 0.5
        /// How long a new field must stay steady while the device turns to become the
        /// reference, seconds. Default 20 s.
        public var newFieldSeconds = 20.0
        /// The same, while the reference is still the model's, seconds. Default 5 s: the model
        /// can be several µT off indoors, and the first steady field is the best guess.
        public var firstFieldSeconds = 5.0
        /// The least turn rate that counts towards accepting a new field, °/s. Default 20 °/s.
        public var newFieldTurnDegreesPerSecond = 20.0

        /// The defaults.
        public init() {}
    }

    /// How far the field may depart from the reference before it counts as disturbed: the
    /// score is √((ΔF/F / strength)² + (ΔI / dip)²), so 1 on the ellipse these two span.
    public struct Tolerance: Sendable, Hashable {
        /// Relative departure in strength, ΔF/F.
        public var strength: Double
        /// Departure in dip, degrees.
        public var dipDegrees: Double

        /// A tolerance from its parts.
        public init(strength: Double, dipDegrees: Double) {
            self.strength = strength
            self.dipDegrees = dipDegrees
        }
    }

    public let settings: Settings
    /// The reference strength, µT; nil before the model or a measurement gave one.
    public private(set) var strengthMicrotesla: Double?
    /// The reference dip, degrees.
    public private(set) var inclinationDegrees: Double?
    /// Whether the reference has been learnt from measurements (rather than only the model's).
    public private(set) var isLearnt = false
    /// Whether the field departs from the reference now.
    public private(set) var isDisturbed = false
    /// The latest score.
    public private(set) var score = 0.0
    /// How long the current disturbance has lasted, seconds; 0 while undisturbed.
    public private(set) var disturbedSeconds = 0.0

    private var measured: LowPassFilter
    private var quietSeconds = 0.0
    private var candidate: (strength: Double, inclination: Double)?
    private var candidateSeconds = 0.0

    /// No reference yet.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        measured = LowPassFilter(timeConstantSeconds: settings.measurementTimeConstantSeconds)
    }

    /// Takes the model's field at the place as the reference while none has been learnt.
    public mutating func setModel(strengthMicrotesla: Double, inclinationDegrees: Double) {
        guard !isLearnt, strengthMicrotesla > 0, strengthMicrotesla.isFinite, inclinationDegrees.isFinite else { return }
        self.strengthMicrotesla = strengthMicrotesla
        self.inclinationDegrees = inclinationDegrees
    }

    /// Takes one measurement.
    /// - Parameters:
    ///   - strengthMicrotesla: the calibrated field's strength.
    ///   - inclinationDegrees: its dip, or nil when the direction of gravity is not trusted now
    ///     (without a gyroscope, while the device accelerates): the strength alone is compared.
    ///   - tolerance: how far it may depart from the reference.
    ///   - turnDegreesPerSecond: how fast the device turns.
    ///   - seconds: time since the previous measurement.
    public mutating func update(
        strengthMicrotesla: Double, inclinationDegrees dip: Double?, tolerance: Tolerance, turnDegreesPerSecond: Double,
        seconds: Double
    ) {
        guard strengthMicrotesla.isFinite, strengthMicrotesla > 0 else { return }
        let previousDip = measured.value?.y
        let current = measured.update(
            Vector3(strengthMicrotesla, dip ?? previousDip ?? inclinationDegrees ?? 0, 0), seconds: seconds)
        // Before the model or any learning, the first measurement is the reference.
        guard let referenceDip = inclinationDegrees ?? dip else { return }
        let referenceStrength = self.strengthMicrotesla ?? current.x
        score = Self.score(current.x, current.y, from: referenceStrength, referenceDip, tolerance)
        if !score.isFinite { score = 1 }

        if score > settings.raiseScore {
            isDisturbed = true
            quietSeconds = 0
        } else if isDisturbed, score < settings.clearScore {
            quietSeconds += seconds
            if quietSeconds >= settings.clearSeconds { isDisturbed = false }
        } else {
            quietSeconds = 0
        }

        if isDisturbed {
            disturbedSeconds += seconds
            considerNewField(
                current.x, current.y, tolerance: tolerance, turnDegreesPerSecond: turnDegreesPerSecond, seconds: seconds)
        } else {
            disturbedSeconds = 0
            candidate = nil
            // An undisturbed field trains the reference.
            let gain = seconds / (settings.learningTimeConstantSeconds + seconds)
            self.strengthMicrotesla = referenceStrength + (current.x - referenceStrength) * gain
            if dip != nil { inclinationDegrees = referenceDip + (current.y - referenceDip) * gain }
            isLearnt = true
        }
    }

    /// A disturbed field that stays steady while the device turns becomes the reference.
    private mutating func considerNewField(
        _ strength: Double, _ dip: Double, tolerance: Tolerance, turnDegreesPerSecond: Double, seconds: Double
    ) {
        guard let held = candidate,
            Self.score(strength, dip, from: held.strength, held.inclination, tolerance) < settings.clearScore
        else {
            candidate = (strength, dip)
            candidateSeconds = 0
            return
        }
        if turnDegreesPerSecond >= settings.newFieldTurnDegreesPerSecond { candidateSeconds += seconds }
        let needed = isLearnt ? settings.newFieldSeconds : settings.firstFieldSeconds
        guard candidateSeconds >= needed else { return }
        strengthMicrotesla = strength
        inclinationDegrees = dip
        isLearnt = true
        isDisturbed = false
        disturbedSeconds = 0
        candidate = nil
    }

    /// √((ΔF/F / tolerance)² + (ΔI / tolerance)²).
    static func score(
        _ strength: Double, _ dip: Double, from referenceStrength: Double, _ referenceDip: Double, _ tolerance: Tolerance
    ) -> Double {
        let ds = (strength - referenceStrength) / referenceStrength / tolerance.strength
        let di = (dip - referenceDip) / tolerance.dipDegrees
        return (ds * ds + di * di).squareRoot()
    }
}
