/// What the heading pipeline says about one sample.
public struct HeadingEstimate: Sendable, Hashable {
    /// Why the heading must not guide the wearer now.
    public enum Problem: String, Sendable, Hashable {
        /// No magnetometer calibration yet: hard iron alone can be tens of degrees.
        case notCalibrated = "not-calibrated"
        /// The field departs from the reference (and cannot be coasted through): steel or a
        /// magnet nearby.
        case interference
        /// The forward axis points almost straight up or down.
        case pointingVertical = "pointing-vertical"
        /// The field is parallel to gravity, or the sample was not usable.
        case noSolution = "no-solution"
        /// Near a magnetic pole (WMM2025's blackout zone, horizontal field under 2000 nT): no
        /// compass can be steered by there, whatever the sensors say.
        case magneticBlackout = "magnetic-blackout"
    }

    /// How the magnetometer bears on the heading now.
    public enum Correction: String, Sendable, Hashable {
        /// The field is undisturbed and corrects the heading.
        case magnetic
        /// The field is disturbed; the heading coasts on the gyroscope (`coastingSeconds`).
        case coasting
        /// Nothing trustworthy corrects the heading: a disturbed field without a gyroscope,
        /// coasting for longer than allowed, or no usable sample.
        case none
    }

    /// Magnetic heading of the forward axis, degrees clockwise from magnetic north, filtered.
    public var magneticDegrees: Double?
    /// True heading: magnetic + declination + mount offset, in [0, 360).
    public var trueDegrees: Double?
    /// The declination applied, degrees east.
    public var declinationDegrees: Double
    /// The calibrated field's strength, microtesla.
    public var fieldMicrotesla: Double?
    /// The calibrated field's dip, degrees.
    public var inclinationDegrees: Double?
    /// The interference score (see `MagneticReference`).
    public var interferenceScore: Double
    /// Nil when the heading can guide; otherwise the first reason it cannot.
    public var problem: Problem?
    /// Whether the field corrects the heading, or it coasts, or neither.
    public var correction = Correction.none
    /// How long the heading has coasted on the gyroscope, seconds; 0 unless coasting.
    public var coastingSeconds = 0.0

    /// An estimate from its parts.
    public init(
        magneticDegrees: Double?, trueDegrees: Double?, declinationDegrees: Double, fieldMicrotesla: Double?,
        inclinationDegrees: Double?, interferenceScore: Double, problem: Problem?
    ) {
        self.magneticDegrees = magneticDegrees
        self.trueDegrees = trueDegrees
        self.declinationDegrees = declinationDegrees
        self.fieldMicrotesla = fieldMicrotesla
        self.inclinationDegrees = inclinationDegrees
        self.interferenceScore = interferenceScore
        self.problem = problem
    }

    /// Whether the heading can guide the wearer.
    public var isReliable: Bool { problem == nil && trueDegrees != nil }
}
