import Geodesy

/// How a planned walk goes (issue 41): the corner ahead told once before each turn, and the
/// wearer judged off the path, when the walk should be planned again from where they are. The
/// ``RouteFollower`` walks its waypoints; this watches the line between them. A value fed
/// fixes, returning what happened; pure, like ``Navigator``.
///
/// **Corner ahead**: once the next turn is ``Settings/cornerAheadSeconds`` of walking away (at
/// the fix's speed), or ``Settings/cornerAheadMeters`` if that is farther, its pattern plays,
/// once a turn.
///
/// **Off the path**: a fix whose distance from the line, less its error, is over
/// ``Settings/offPathMeters`` starts a clock; ``Settings/offPathSeconds`` of such fixes, or one
/// fix over ``Settings/farOffPathMeters``, asks for a new plan, at most once every
/// ``Settings/replanIntervalSeconds``.
public struct WalkProgress: Sendable, Hashable {
    /// Settings, with documented defaults (the issue's).
    public struct Settings: Sendable, Hashable {
        /// Beyond this from the line, metres, the wearer may be off the path. Default 25.
        public var offPathMeters = 25.0
        /// So long off the path asks for a new plan, seconds. Default 10.
        public var offPathSeconds = 10.0
        /// Beyond this from the line, metres, one fix asks for a new plan. Default 40.
        public var farOffPathMeters = 40.0
        /// The least time between two plans, seconds. Default 15.
        public var replanIntervalSeconds = 15.0
        /// The corner is told this far ahead at least, metres. Default 15.
        public var cornerAheadMeters = 15.0
        /// The corner is told this long ahead at the walking speed, seconds, when that is
        /// farther. Default 10 (14 m at 1.4 m/s).
        public var cornerAheadSeconds = 10.0
        /// The corner is never told from farther than this, metres. Default 30.
        public var maximumCornerAheadMeters = 30.0

        /// The defaults.
        public init() {}
    }

    /// What a fix did.
    public enum Event: Sendable, Hashable {
        /// The turn at this index of the plan's turns is near: play the corner-ahead pattern.
        case cornerAhead(Int)
        /// The wearer is off the path, this many metres from it: plan again from here.
        case strayed(Double)
    }

    /// The plan being walked.
    public let plan: WalkPlan
    /// How many times the walk was planned again.
    public let replans: Int
    /// The settings.
    public let settings: Settings
    /// The turns told so far (their count, in order).
    public private(set) var turnsTold = 0
    /// When the walk was last planned, seconds.
    public private(set) var plannedSeconds: Double
    private var offPathSinceSeconds: Double?
    /// The latest distance from the line, metres.
    public private(set) var offPathMeters: Double?

    /// The walk of `plan`, planned at `seconds`, after `replans` plans again.
    public init(plan: WalkPlan, plannedSeconds: Double, replans: Int = 0, settings: Settings = Settings()) {
        self.plan = plan
        self.plannedSeconds = plannedSeconds
        self.replans = replans
        self.settings = settings
    }

    /// The next turn not yet reached, given the follower's waypoint index: its index in the
    /// plan's turns.
    public func nextTurn(waypoint: Int) -> Int? {
        for index in waypoint..<plan.waypoints.count {
            if let turn = plan.turnWaypoints[index] { return turn }
        }
        return nil
    }

    /// Metres from `position` to turn `turn` along the line, going by waypoint `waypoint` (the
    /// one being walked to).
    public func metersToTurn(_ turn: Int, from position: Coordinate, waypoint: Int) -> Double {
        guard waypoint < plan.waypoints.count else { return 0 }
        let target = plan.waypoints[waypoint]
        let straight = Geodesic.wgs84.inverse(from: position, to: plan.shape[target]).distanceMeters
        return straight + max(plan.turns[turn].alongMeters - plan.alongMeters[target], 0)
    }

    /// Takes a fix.
    /// - Parameters:
    ///   - position: Where the wearer is.
    ///   - errorMeters: The fix's horizontal error, if known.
    ///   - speedMetersPerSecond: The fix's speed, if known.
    ///   - waypoint: The follower's waypoint being walked to.
    ///   - seconds: The fix's time.
    /// - Returns: What the fix did, or nil.
    public mutating func update(
        position: Coordinate, errorMeters: Double?, speedMetersPerSecond: Double?, waypoint: Int, seconds: Double
    ) -> Event? {
        // Off the path: measured from the leg being walked on, not the part behind.
        let legStart = waypoint > 0 && waypoint - 1 < plan.waypoints.count ? plan.waypoints[waypoint - 1] : 0
        let distance = plan.distanceFromShape(position, fromIndex: legStart)
        offPathMeters = distance
        let beyond = distance - (errorMeters ?? 0)
        if beyond > settings.offPathMeters {
            let since = offPathSinceSeconds ?? seconds
            offPathSinceSeconds = since
            let due = beyond > settings.farOffPathMeters || seconds - since >= settings.offPathSeconds
            if due, seconds - plannedSeconds >= settings.replanIntervalSeconds {
                plannedSeconds = seconds
                offPathSinceSeconds = nil
                return .strayed(distance)
            }
            return nil
        }
        offPathSinceSeconds = nil
        // The corner ahead, once a turn.
        guard let turn = nextTurn(waypoint: waypoint), turn >= turnsTold else { return nil }
        let lead = min(
            max(settings.cornerAheadMeters, (speedMetersPerSecond ?? 0) * settings.cornerAheadSeconds), settings.maximumCornerAheadMeters)
        guard metersToTurn(turn, from: position, waypoint: waypoint) <= lead else { return nil }
        turnsTold = turn + 1
        return .cornerAhead(turn)
    }

    /// A plan asked for was not made: the next may be asked for an interval later.
    public mutating func planFailed(at seconds: Double) { plannedSeconds = seconds }
}
