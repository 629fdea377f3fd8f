/// Everything a `STATUS` reply carries, as the daemon fills it in. Wire names are in each
/// property's documentation; unknown values (nil, NaN, infinity) are written as `null`.
///
/// These are wire types, kept apart from the core's `Fix`, `Navigator` and `HeadingEstimate`:
/// the daemon copies what it knows into them.
public struct StatusReport: Sendable, Hashable {
    /// The latest fix: `fix` on the wire, or null when there is none.
    public struct Fix: Sendable, Hashable {
        /// `time`: ISO 8601 UTC, e.g. `2026-05-01T12:00:00.5Z`; null when the receiver gave none.
        public var time: String?
        /// `mode`: 1 no fix, 2 2D, 3 3D.
        public var mode: Int
        /// `lat`: degrees, positive north.
        public var latitude: Double?
        /// `lon`: degrees, positive east.
        public var longitude: Double?
        /// `eph`: estimated horizontal position error, metres.
        public var horizontalErrorMeters: Double?
        /// `altMSL`: altitude above mean sea level, metres.
        public var altitudeMSLMeters: Double?
        /// `altHAE`: height above the WGS84 ellipsoid, metres.
        public var altitudeHAEMeters: Double?
        /// `age`: seconds since the daemon received it.
        public var ageSeconds: Double?
        /// `problem`: why it cannot guide (`no-position`, `stale`, `imprecise`), or null when it
        /// can; a fix with a problem is the last known one, not where the wearer is now.
        public var problem: String?

        /// A fix from its parts.
        public init(
            time: String?, mode: Int, latitude: Double?, longitude: Double?, horizontalErrorMeters: Double?,
            altitudeMSLMeters: Double? = nil, altitudeHAEMeters: Double? = nil, ageSeconds: Double? = nil,
            problem: String? = nil
        ) {
            self.time = time
            self.mode = mode
            self.latitude = latitude
            self.longitude = longitude
            self.horizontalErrorMeters = horizontalErrorMeters
            self.altitudeMSLMeters = altitudeMSLMeters
            self.altitudeHAEMeters = altitudeHAEMeters
            self.ageSeconds = ageSeconds
            self.problem = problem
        }
    }

    /// The wearer's heading: `heading` on the wire, always an object.
    public struct Heading: Sendable, Hashable {
        /// `true`: degrees clockwise from true north, [0, 360).
        public var trueDegrees: Double?
        /// `magnetic`: degrees clockwise from magnetic north, [0, 360).
        public var magneticDegrees: Double?
        /// `declination`: degrees, positive east, as applied.
        public var declinationDegrees: Double?
        /// `reliable`: false when the IMU failed, is uncalibrated, or sees interference.
        public var isReliable: Bool
        /// `bias`: degrees the course assist adds to the compass, learnt from the GPS track.
        public var biasDegrees: Double?
        /// `correction`: how the magnetometer bears on the heading: `magnetic` (the field is
        /// undisturbed and corrects it), `coasting` (the field is disturbed and the gyroscope
        /// carries the heading), `none` (nothing trustworthy corrects it), or null.
        public var correction: String?
        /// `coasting`: seconds the heading has coasted on the gyroscope; 0 unless coasting.
        public var coastingSeconds: Double?
        /// `problem`: why the heading cannot guide (`no-imu`, `not-calibrated`, `interference`,
        /// `pointing-vertical`, `no-solution`), or null.
        public var problem: String?

        /// A heading from its parts; everything unknown by default.
        public init(
            trueDegrees: Double? = nil, magneticDegrees: Double? = nil, declinationDegrees: Double? = nil,
            isReliable: Bool = false, biasDegrees: Double? = nil, correction: String? = nil,
            coastingSeconds: Double? = nil, problem: String? = nil
        ) {
            self.trueDegrees = trueDegrees
            self.magneticDegrees = magneticDegrees
            self.declinationDegrees = declinationDegrees
            self.isReliable = isReliable
            self.biasDegrees = biasDegrees
            self.correction = correction
            self.coastingSeconds = coastingSeconds
            self.problem = problem
        }
    }

    /// The motor's current cue: `haptic` on the wire, always an object.
    public struct Haptic: Sendable, Hashable {
        /// `intensity`: 0…1.
        public var intensity: Double?
        /// `sharpness`: 0…1.
        public var sharpness: Double?
        /// `duty`: the PWM duty cycle being output, 0…1.
        public var duty: Double?
        /// `pattern`: the pattern playing now (`accepted`, `arrived`, `gps-lost`,
        /// `heading-unreliable`, `calibrated`, `test`), or null.
        public var pattern: String?
        /// `zone`: the half-width of the zone around the destination's bearing, degrees (the
        /// configured one, widened when the position error makes the bearing uncertain), or
        /// null while there is no bearing.
        public var zoneDegrees: Double?
        /// `mode`: `toward` (the motor answers inside the zone) or `away` (outside it).
        public var mode: String?

        /// A cue from its parts; everything unknown by default.
        public init(
            intensity: Double? = nil, sharpness: Double? = nil, duty: Double? = nil, pattern: String? = nil,
            zoneDegrees: Double? = nil, mode: String? = nil
        ) {
            self.intensity = intensity
            self.sharpness = sharpness
            self.duty = duty
            self.pattern = pattern
            self.zoneDegrees = zoneDegrees
            self.mode = mode
        }
    }

    /// The IMU in use: `imu` on the wire, or null while there is none.
    public struct IMU: Sendable, Hashable {
        /// `chips`: the magnetometer and accelerometer, with their addresses.
        public var chips: String
        /// `samples`: samples read since the IMU was found.
        public var samples: Int
        /// `errors`: I2C transfers that failed, retries included.
        public var transferErrors: Int
        /// `faults`: reads that failed after their retry.
        public var faults: Int
        /// `restarts`: times the chips were configured again after failing.
        public var restarts: Int

        /// An IMU report from its parts.
        public init(chips: String, samples: Int, transferErrors: Int, faults: Int, restarts: Int) {
            self.chips = chips
            self.samples = samples
            self.transferErrors = transferErrors
            self.faults = faults
            self.restarts = restarts
        }
    }

    /// `state`: the guidance state, `idle`, `no-fix`, `no-heading`, `guiding` or `arrived`.
    public var state: String
    /// `fix`: the latest fix, or null.
    public var fix: Fix?
    /// `heading`.
    public var heading: Heading
    /// `destination`: where the wearer is being guided, or null.
    public var destination: DestinationReport?
    /// `route`: the route being walked, or null; `destination` is then its current waypoint.
    public var route: RouteReport?
    /// `bearing`: degrees from true north to the destination, [0, 360).
    public var bearingDegrees: Double?
    /// `distance`: metres to the destination.
    public var distanceMeters: Double?
    /// `error`: degrees to turn, (−180, 180], positive clockwise.
    public var errorDegrees: Double?
    /// `haptic`.
    public var haptic: Haptic
    /// `calibration`: the magnetometer calibration's state, e.g. `none`, `saved`, `running`.
    public var calibration: String?
    /// `muted`: whether guidance vibration is muted.
    public var isMuted: Bool?
    /// `imu`: the chips in use and their error counts, or null while no IMU can be read.
    public var imu: IMU?
    /// `map`: the offline map loaded for search and where, or null without one.
    public var map: Map?
    /// `button`: the button's devices and its last gesture, or null when none is configured.
    public var button: Button?
    /// `said`: the last sentence the button asked for (spoken, or to be shown), or null.
    public var said: Said?
    /// `problems`: what went wrong that the wearer's helper should know, one sentence each,
    /// e.g. a state file found corrupt at start and set aside; empty when nothing did.
    public var problems: [String]

    /// A report from its parts; everything but the state unknown by default.
    public init(
        state: String, fix: Fix? = nil, heading: Heading = Heading(), destination: DestinationReport? = nil,
        bearingDegrees: Double? = nil, distanceMeters: Double? = nil, errorDegrees: Double? = nil,
        haptic: Haptic = Haptic(), calibration: String? = nil, isMuted: Bool? = nil, imu: IMU? = nil,
        problems: [String] = [], route: RouteReport? = nil
    ) {
        self.route = route
        self.imu = imu
        self.state = state
        self.fix = fix
        self.heading = heading
        self.destination = destination
        self.bearingDegrees = bearingDegrees
        self.distanceMeters = distanceMeters
        self.errorDegrees = errorDegrees
        self.haptic = haptic
        self.calibration = calibration
        self.isMuted = isMuted
        self.problems = problems
    }
}

extension StatusReport: Encodable {
    enum CodingKeys: String, CodingKey {
        case messageClass = "class", state, fix, heading, destination, bearing, distance, error, haptic
        case calibration, muted, imu, problems, route, map, button, said
    }

    /// Writes the whole `STATUS` message, `"class":"STATUS"` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.status.rawValue, forKey: .messageClass)
        try container.encode(state, forKey: .state)
        try container.encode(fix, forKey: .fix)
        try container.encode(heading, forKey: .heading)
        try container.encode(destination, forKey: .destination)
        try container.encode(route, forKey: .route)
        try container.encode(WireNumber(bearingDegrees), forKey: .bearing)
        try container.encode(WireNumber(distanceMeters), forKey: .distance)
        try container.encode(WireNumber(errorDegrees), forKey: .error)
        try container.encode(haptic, forKey: .haptic)
        try container.encode(calibration, forKey: .calibration)
        try container.encode(isMuted, forKey: .muted)
        try container.encode(imu, forKey: .imu)
        try container.encode(map, forKey: .map)
        try container.encode(button, forKey: .button)
        try container.encode(said, forKey: .said)
        try container.encode(problems, forKey: .problems)
    }
}

extension StatusReport {
    /// `{"source":"monaco.osm.pbf","timestamp":"2016-03-05T00:26:02Z"}`: the extract the place
    /// index was built from, and its OSM date.
    public struct Map: Sendable, Hashable, Codable {
        public var source: String
        public var timestamp: String

        public init(source: String, timestamp: String) {
            self.source = source
            self.timestamp = timestamp
        }
    }
}

extension StatusReport {
    /// `{"devices":[…],"pressed":{"n":3,"gesture":"double"},"testing":false}`: the devices
    /// read as the button, the last gesture (numbered from 1 since the start, so that a watcher
    /// sees each once), and whether `button test` is on (gestures reported, not acted on).
    public struct Button: Sendable, Hashable, Codable {
        public var devices: [Device]
        public var pressed: Pressed?
        public var testing: Bool

        public init(devices: [Device], pressed: Pressed? = nil, testing: Bool = false) {
            self.devices = devices
            self.pressed = pressed
            self.testing = testing
        }

        /// `{"device":"/dev/input/by-path/…","name":"button@11","ready":true,"problem":null}`:
        /// as configured, its name once opened, whether it is read now, and why not.
        public struct Device: Sendable, Hashable, Codable {
            public var device: String
            public var name: String?
            public var ready: Bool
            public var problem: String?

            public init(device: String, name: String? = nil, ready: Bool, problem: String? = nil) {
                self.device = device
                self.name = name
                self.ready = ready
                self.problem = problem
            }
        }

        /// `{"n":3,"gesture":"double"}`.
        public struct Pressed: Sendable, Hashable, Codable {
            public var serial: Int
            public var gesture: String

            enum CodingKeys: String, CodingKey { case serial = "n", gesture }

            public init(serial: Int, gesture: String) {
                self.serial = serial
                self.gesture = gesture
            }
        }
    }

    /// `{"n":2,"text":"Bakery is 240 metres away, at 2 o'clock."}`: numbered from 1 since the
    /// start, so that the companion says each once.
    public struct Said: Sendable, Hashable, Codable {
        public var serial: Int
        public var text: String

        enum CodingKeys: String, CodingKey { case serial = "n", text }

        public init(serial: Int, text: String) {
            self.serial = serial
            self.text = text
        }
    }
}

extension StatusReport.Fix: Encodable {
    enum CodingKeys: String, CodingKey { case time, mode, lat, lon, eph, altMSL, altHAE, age, problem }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(mode, forKey: .mode)
        try container.encode(WireNumber(latitude), forKey: .lat)
        try container.encode(WireNumber(longitude), forKey: .lon)
        try container.encode(WireNumber(horizontalErrorMeters), forKey: .eph)
        try container.encode(WireNumber(altitudeMSLMeters), forKey: .altMSL)
        try container.encode(WireNumber(altitudeHAEMeters), forKey: .altHAE)
        try container.encode(WireNumber(ageSeconds), forKey: .age)
        try container.encode(problem, forKey: .problem)
    }
}

extension StatusReport.Heading: Encodable {
    enum CodingKeys: String, CodingKey {
        case trueDegrees = "true", magnetic, declination, reliable, bias, correction, coasting, problem
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(trueDegrees), forKey: .trueDegrees)
        try container.encode(WireNumber(magneticDegrees), forKey: .magnetic)
        try container.encode(WireNumber(declinationDegrees), forKey: .declination)
        try container.encode(isReliable, forKey: .reliable)
        try container.encode(WireNumber(biasDegrees), forKey: .bias)
        try container.encode(correction, forKey: .correction)
        try container.encode(WireNumber(coastingSeconds), forKey: .coasting)
        try container.encode(problem, forKey: .problem)
    }
}

extension StatusReport.Haptic: Encodable {
    enum CodingKeys: String, CodingKey { case intensity, sharpness, duty, pattern, zone, mode }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(intensity), forKey: .intensity)
        try container.encode(WireNumber(sharpness), forKey: .sharpness)
        try container.encode(WireNumber(duty), forKey: .duty)
        try container.encode(pattern, forKey: .pattern)
        try container.encode(WireNumber(zoneDegrees), forKey: .zone)
        try container.encode(mode, forKey: .mode)
    }
}

extension StatusReport.IMU: Encodable {
    enum CodingKeys: String, CodingKey { case chips, samples, errors, faults, restarts }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chips, forKey: .chips)
        try container.encode(samples, forKey: .samples)
        try container.encode(transferErrors, forKey: .errors)
        try container.encode(faults, forKey: .faults)
        try container.encode(restarts, forKey: .restarts)
    }
}
