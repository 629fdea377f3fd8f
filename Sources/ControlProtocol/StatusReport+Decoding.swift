// Reading STATUS back, for clients. Absent and null fields are unknown (nil), unknown fields are
// ignored; only `state` is required, because without it the report says nothing.

extension StatusReport: Decodable {
    /// Reads a `STATUS` message; its `"class"` is not checked here (``ControlReply/init(line:)``
    /// chose this type by it).
    /// - Throws: `DecodingError` when `state` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            state: try container.decode(String.self, forKey: .state),
            fix: try container.decodeIfPresent(Fix.self, forKey: .fix),
            heading: try container.decodeIfPresent(Heading.self, forKey: .heading) ?? Heading(),
            destination: try container.decodeIfPresent(DestinationReport.self, forKey: .destination),
            bearingDegrees: try container.decodeIfPresent(Double.self, forKey: .bearing),
            distanceMeters: try container.decodeIfPresent(Double.self, forKey: .distance),
            errorDegrees: try container.decodeIfPresent(Double.self, forKey: .error),
            haptic: try container.decodeIfPresent(Haptic.self, forKey: .haptic) ?? Haptic(),
            calibration: try container.decodeIfPresent(String.self, forKey: .calibration),
            isMuted: try container.decodeIfPresent(Bool.self, forKey: .muted),
            imu: try container.decodeIfPresent(IMU.self, forKey: .imu),
            problems: try container.decodeIfPresent([String].self, forKey: .problems) ?? [],
            route: try container.decodeIfPresent(RouteReport.self, forKey: .route))
        map = try container.decodeIfPresent(Map.self, forKey: .map)
        button = try container.decodeIfPresent(Button.self, forKey: .button)
        said = try container.decodeIfPresent(Said.self, forKey: .said)
    }
}

extension StatusReport.Fix: Decodable {
    /// Reads `fix`; a missing or null `mode` reads as 1, no fix.
    /// - Throws: `DecodingError` when a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            time: try container.decodeIfPresent(String.self, forKey: .time),
            mode: try container.decodeIfPresent(Int.self, forKey: .mode) ?? 1,
            latitude: try container.decodeIfPresent(Double.self, forKey: .lat),
            longitude: try container.decodeIfPresent(Double.self, forKey: .lon),
            horizontalErrorMeters: try container.decodeIfPresent(Double.self, forKey: .eph),
            altitudeMSLMeters: try container.decodeIfPresent(Double.self, forKey: .altMSL),
            altitudeHAEMeters: try container.decodeIfPresent(Double.self, forKey: .altHAE),
            ageSeconds: try container.decodeIfPresent(Double.self, forKey: .age),
            problem: try container.decodeIfPresent(String.self, forKey: .problem))
    }
}

extension StatusReport.Heading: Decodable {
    /// Reads `heading`; a missing or null `reliable` reads as false, the safe side.
    /// - Throws: `DecodingError` when a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trueDegrees: try container.decodeIfPresent(Double.self, forKey: .trueDegrees),
            magneticDegrees: try container.decodeIfPresent(Double.self, forKey: .magnetic),
            declinationDegrees: try container.decodeIfPresent(Double.self, forKey: .declination),
            isReliable: try container.decodeIfPresent(Bool.self, forKey: .reliable) ?? false,
            biasDegrees: try container.decodeIfPresent(Double.self, forKey: .bias),
            correction: try container.decodeIfPresent(String.self, forKey: .correction),
            coastingSeconds: try container.decodeIfPresent(Double.self, forKey: .coasting),
            problem: try container.decodeIfPresent(String.self, forKey: .problem))
    }
}

extension StatusReport.Haptic: Decodable {
    /// Reads `haptic`.
    /// - Throws: `DecodingError` when a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            intensity: try container.decodeIfPresent(Double.self, forKey: .intensity),
            sharpness: try container.decodeIfPresent(Double.self, forKey: .sharpness),
            duty: try container.decodeIfPresent(Double.self, forKey: .duty),
            pattern: try container.decodeIfPresent(String.self, forKey: .pattern),
            zoneDegrees: try container.decodeIfPresent(Double.self, forKey: .zone),
            mode: try container.decodeIfPresent(String.self, forKey: .mode))
    }
}

extension StatusReport.IMU: Decodable {
    /// Reads `imu`; missing counts read as 0.
    /// - Throws: `DecodingError` when `chips` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            chips: try container.decode(String.self, forKey: .chips),
            samples: try container.decodeIfPresent(Int.self, forKey: .samples) ?? 0,
            transferErrors: try container.decodeIfPresent(Int.self, forKey: .errors) ?? 0,
            faults: try container.decodeIfPresent(Int.self, forKey: .faults) ?? 0,
            restarts: try container.decodeIfPresent(Int.self, forKey: .restarts) ?? 0)
    }
}
