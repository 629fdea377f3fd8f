import Geodesy
import Heading

/// A magnetometer calibration as the daemon keeps it: the correction itself, when it was made,
/// and how good the fit was.
public struct SavedCalibration: Sendable, Hashable {
    /// How good a calibration was when it was made. Every figure is optional: a calibration
    /// entered by hand or taken from a recording has none.
    public struct Quality: Sendable, Hashable {
        /// RMS of (|calibrated| − F) / F, percent.
        public var fitErrorPercent: Double?
        /// Share of 26 evenly spread directions that had a sample within 30°, percent.
        public var coveragePercent: Double?
        /// The field strength the fit implied before scaling, microtesla.
        public var fittedFieldMicrotesla: Double?
        /// The model's total intensity the fit was scaled to, microtesla.
        public var referenceFieldMicrotesla: Double?
        /// Samples used.
        public var sampleCount: Int?

        /// Figures from their parts; each may be nil.
        public init(
            fitErrorPercent: Double? = nil, coveragePercent: Double? = nil, fittedFieldMicrotesla: Double? = nil,
            referenceFieldMicrotesla: Double? = nil, sampleCount: Int? = nil
        ) {
            self.fitErrorPercent = fitErrorPercent
            self.coveragePercent = coveragePercent
            self.fittedFieldMicrotesla = fittedFieldMicrotesla
            self.referenceFieldMicrotesla = referenceFieldMicrotesla
            self.sampleCount = sampleCount
        }

        /// The figures of a fresh fit.
        ///
        /// - Parameter quality: What ``CalibrationFit/fit(referenceFieldMicrotesla:)`` reported.
        public init(_ quality: CalibrationFit.Quality) {
            self.init(
                fitErrorPercent: quality.fitErrorPercent, coveragePercent: quality.coveragePercent,
                fittedFieldMicrotesla: quality.fittedFieldMicrotesla,
                referenceFieldMicrotesla: quality.referenceFieldMicrotesla, sampleCount: quality.sampleCount)
        }

        /// No figures.
        public static let unknown = Quality()
    }

    /// The correction: `calibrated = matrix · (raw − offset)`.
    public var calibration: MagneticCalibration
    /// When it was made, from the system clock (or the fix time when the clock is not set).
    /// Stored to the millisecond.
    public var createdAt: UTCTime
    /// How good it was.
    public var quality: Quality

    /// A saved calibration from its parts.
    ///
    /// - Parameters:
    ///   - calibration: The correction.
    ///   - createdAt: When it was made.
    ///   - quality: How good it was; ``Quality/unknown`` when not known.
    public init(calibration: MagneticCalibration, createdAt: UTCTime, quality: Quality = .unknown) {
        self.calibration = calibration
        self.createdAt = createdAt
        self.quality = quality
    }
}
