// Reading CALIBRATION back, for clients: only `state` is required; absent and null fields are
// unknown, unknown fields are ignored.

extension CalibrationReport: Decodable {
    /// Reads a `CALIBRATION` message; its `"class"` is not checked here.
    /// - Throws: `DecodingError` when `state` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            state: try container.decode(String.self, forKey: .state),
            samples: try container.decodeIfPresent(Int.self, forKey: .samples),
            octants: try container.decodeIfPresent([Int].self, forKey: .octants),
            quality: try container.decodeIfPresent(Quality.self, forKey: .quality),
            created: try container.decodeIfPresent(String.self, forKey: .created),
            message: try container.decodeIfPresent(String.self, forKey: .message),
            missing: try container.decodeIfPresent([String].self, forKey: .missing),
            isReady: try container.decodeIfPresent(Bool.self, forKey: .isReady))
    }
}

extension CalibrationReport.Quality: Decodable {
    /// Reads `quality`; every figure may be null.
    /// - Throws: `DecodingError` when a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            fitErrorPercent: try container.decodeIfPresent(Double.self, forKey: .fitErrorPercent),
            coveragePercent: try container.decodeIfPresent(Double.self, forKey: .coveragePercent),
            fittedFieldMicrotesla: try container.decodeIfPresent(Double.self, forKey: .fittedFieldMicrotesla),
            referenceFieldMicrotesla: try container.decodeIfPresent(Double.self, forKey: .referenceFieldMicrotesla),
            sampleCount: try container.decodeIfPresent(Int.self, forKey: .sampleCount))
    }
}
