/// The `CALIBRATION` reply: where the magnetometer calibration stands.
///
/// ```
/// {"class":"CALIBRATION","state":"running","samples":412,"octants":[60,48,51,50,55,49,47,52],
///  "quality":null,"created":null,"message":"keep turning: …"}
/// ```
public struct CalibrationReport: Sendable, Hashable {
    /// How good a fitted calibration is: `quality` on the wire.
    public struct Quality: Sendable, Hashable {
        /// `fitError`: RMS deviation of the calibrated field from the model's strength, percent.
        public var fitErrorPercent: Double?
        /// `coverage`: of 26 evenly spread directions, those sampled, percent.
        public var coveragePercent: Double?
        /// `field`: the field strength the fit found before scaling, microtesla.
        public var fittedFieldMicrotesla: Double?
        /// `reference`: the model's field strength it was scaled to, microtesla.
        public var referenceFieldMicrotesla: Double?
        /// `samples`: samples used.
        public var sampleCount: Int?

        /// A quality from its parts; unknown figures are nil.
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
    }

    /// `state`: `none` (no calibration), `stored` (one is in use) or `running` (collecting).
    public var state: String
    /// `samples`: samples collected so far while running; null otherwise.
    public var samples: Int?
    /// `octants`: samples per octant of field direction while running (8 counts); null otherwise.
    public var octants: [Int]?
    /// `quality`: of the calibration in use, or null.
    public var quality: Quality?
    /// `created`: when the calibration in use was made, ISO 8601 UTC, or null.
    public var created: String?
    /// `message`: a sentence for people: what happened or what to do next.
    public var message: String?
    /// `missing`: while running, the directions still short of samples, in words ("tilt it
    /// nose-down and to the left"); null otherwise.
    public var missing: [String]?
    /// `ready`: while running, whether `finish` would store a calibration now; null otherwise.
    public var isReady: Bool?

    /// A report from its parts.
    public init(
        state: String, samples: Int? = nil, octants: [Int]? = nil, quality: Quality? = nil, created: String? = nil,
        message: String? = nil, missing: [String]? = nil, isReady: Bool? = nil
    ) {
        self.missing = missing
        self.isReady = isReady
        self.state = state
        self.samples = samples
        self.octants = octants
        self.quality = quality
        self.created = created
        self.message = message
    }
}

extension CalibrationReport: Encodable {
    enum CodingKeys: String, CodingKey {
        case messageClass = "class", state, samples, octants, missing, isReady = "ready", quality, created, message
    }

    /// Writes the whole `CALIBRATION` message, `"class"` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.calibration.rawValue, forKey: .messageClass)
        try container.encode(state, forKey: .state)
        try container.encode(samples, forKey: .samples)
        try container.encode(octants, forKey: .octants)
        try container.encode(missing, forKey: .missing)
        try container.encode(isReady, forKey: .isReady)
        try container.encode(quality, forKey: .quality)
        try container.encode(created, forKey: .created)
        try container.encode(message, forKey: .message)
    }
}

extension CalibrationReport.Quality: Encodable {
    enum CodingKeys: String, CodingKey {
        case fitErrorPercent = "fitError", coveragePercent = "coverage", fittedFieldMicrotesla = "field"
        case referenceFieldMicrotesla = "reference", sampleCount = "samples"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(fitErrorPercent), forKey: .fitErrorPercent)
        try container.encode(WireNumber(coveragePercent), forKey: .coveragePercent)
        try container.encode(WireNumber(fittedFieldMicrotesla), forKey: .fittedFieldMicrotesla)
        try container.encode(WireNumber(referenceFieldMicrotesla), forKey: .referenceFieldMicrotesla)
        try container.encode(sampleCount, forKey: .sampleCount)
    }
}
