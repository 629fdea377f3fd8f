/// A planned walk (issue 41): the `PLAN` reply to `route plan`, and `walk` in a route's report
/// while one is followed.
///
/// ```
/// {"class":"PLAN","distance_m":812.4,"duration_s":731,"profile":"foot","following":false,
///  "shape":[[43.7383,7.4245],…],
///  "turns":[{"lat":43.7378,"lon":7.4235,"turn_deg":-88.0,"street":"Rue Grimaldi",
///            "distance_m":120.3,"instruction":"in 120 m turn left onto Rue Grimaldi"},…]}
/// ```
public struct WalkPlanReport: Sendable, Hashable {
    /// `distance_m`: the walk's length along the ways.
    public var distanceMeters: Double
    /// `duration_s`: how long it takes at Routino's walking speed.
    public var durationSeconds: Double
    /// `profile`: `foot` or `wheelchair`.
    public var profile: String
    /// `following`: whether the daemon now guides along it.
    public var isFollowing: Bool
    /// `shape`: the line, `[lat, lon]` pairs.
    public var shape: [[Double]]
    /// `turns`: each turn, its distance from the one before (or the start).
    public var turns: [TurnReport]

    /// A report from its parts.
    public init(
        distanceMeters: Double, durationSeconds: Double, profile: String, isFollowing: Bool, shape: [[Double]], turns: [TurnReport]
    ) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.profile = profile
        self.isFollowing = isFollowing
        self.shape = shape
        self.turns = turns
    }
}

/// One turn of a walk: where, how much, onto which way, how far, and the sentence.
public struct TurnReport: Sendable, Hashable, Codable {
    /// `lat`, `lon`: where the turn is.
    public var latitude: Double
    public var longitude: Double
    /// `turn_deg`: positive to the right, negative to the left.
    public var turnDegrees: Double
    /// `street`: the name of the way taken, or null for a way without one.
    public var street: String?
    /// `distance_m`: metres to it, from the turn before in a plan, from the wearer in a status.
    public var distanceMeters: Double
    /// `instruction`: `in 120 m turn left onto Rue Grimaldi`.
    public var instruction: String

    /// A turn from its parts.
    public init(latitude: Double, longitude: Double, turnDegrees: Double, street: String?, distanceMeters: Double, instruction: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.turnDegrees = turnDegrees
        self.street = street
        self.distanceMeters = distanceMeters
        self.instruction = instruction
    }

    enum CodingKeys: String, CodingKey {
        case latitude = "lat", longitude = "lon", turnDegrees = "turn_deg", street, distanceMeters = "distance_m", instruction
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireNumber(latitude), forKey: .latitude)
        try container.encode(WireNumber(longitude), forKey: .longitude)
        try container.encode(WireNumber(turnDegrees), forKey: .turnDegrees)
        try container.encode(street, forKey: .street)
        try container.encode(WireNumber(distanceMeters), forKey: .distanceMeters)
        try container.encode(instruction, forKey: .instruction)
    }
}

extension WalkPlanReport: Codable {
    enum CodingKeys: String, CodingKey {
        case messageClass = "class", distanceMeters = "distance_m", durationSeconds = "duration_s", profile, isFollowing = "following"
        case shape, turns
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.plan.rawValue, forKey: .messageClass)
        try container.encode(WireNumber(distanceMeters), forKey: .distanceMeters)
        try container.encode(WireNumber(durationSeconds), forKey: .durationSeconds)
        try container.encode(profile, forKey: .profile)
        try container.encode(isFollowing, forKey: .isFollowing)
        try container.encode(shape, forKey: .shape)
        try container.encode(turns, forKey: .turns)
    }

    /// Reads `PLAN`; every field is required but `following`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            distanceMeters: try container.decode(Double.self, forKey: .distanceMeters),
            durationSeconds: try container.decode(Double.self, forKey: .durationSeconds),
            profile: try container.decode(String.self, forKey: .profile),
            isFollowing: try container.decodeIfPresent(Bool.self, forKey: .isFollowing) ?? false,
            shape: try container.decode([[Double]].self, forKey: .shape),
            turns: try container.decode([TurnReport].self, forKey: .turns))
    }
}

/// A walk being followed: `walk` in a route's report.
///
/// ```
/// "walk":{"profile":"foot","next":{…a turn, its distance from the wearer…},
///         "remaining_m":640.2,"replans":1,"off_path_m":3.1,"problem":null,"steps":[…]}
/// ```
public struct WalkReport: Sendable, Hashable, Codable {
    /// `profile`: `foot` or `wheelchair`.
    public var profile: String
    /// `next`: the next turn, its distance from the wearer along the way; null on the last
    /// leg or without a fix.
    public var next: TurnReport?
    /// `remaining_m`: metres to the destination along the way; null without a fix.
    public var remainingMeters: Double?
    /// `replans`: how many times the walk was planned again since it began.
    public var replans: Int
    /// `off_path_m`: the latest fix's distance from the line.
    public var offPathMeters: Double?
    /// `problem`: why the last plan asked for was not made, until one is.
    public var problem: String?
    /// `steps`: the turns still ahead, each its distance from the one before (from the
    /// wearer for the first); in `ROUTE` replies only.
    public var steps: [TurnReport]?

    /// A report from its parts.
    public init(
        profile: String, next: TurnReport?, remainingMeters: Double?, replans: Int, offPathMeters: Double?, problem: String?,
        steps: [TurnReport]? = nil
    ) {
        self.profile = profile
        self.next = next
        self.remainingMeters = remainingMeters
        self.replans = replans
        self.offPathMeters = offPathMeters
        self.problem = problem
        self.steps = steps
    }

    enum CodingKeys: String, CodingKey {
        case profile, next, remainingMeters = "remaining_m", replans, offPathMeters = "off_path_m", problem, steps
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile, forKey: .profile)
        try container.encode(next, forKey: .next)
        try container.encode(WireNumber(remainingMeters), forKey: .remainingMeters)
        try container.encode(replans, forKey: .replans)
        try container.encode(WireNumber(offPathMeters), forKey: .offPathMeters)
        try container.encode(problem, forKey: .problem)
        try container.encodeIfPresent(steps, forKey: .steps)
    }
}
