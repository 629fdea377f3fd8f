import Geodesy
import Guidance

// Walks over the streets (issue 41): a planned walk is followed as a route whose waypoints are
// its turns and bends, then the destination itself (the last leg straight to the door). The
// plan is made outside the state (Routino runs as a child of the executor); the state decides
// when a new one is wanted (`Effect.planWalk`) and takes it when it comes (`walkPlanned`).

extension DaemonState {
    /// A walk being followed: the plan's progress, where it goes, for whom.
    public struct ActiveWalk: Sendable, Equatable {
        /// The corner-ahead and off-path watch over the plan.
        public var progress: WalkProgress
        /// Where the walk goes: the place asked for, not the way's end nearest it.
        public var destination: SavedDestination
        /// Routino's profile: `foot` or `wheelchair`.
        public var profile: String
        /// Why the last plan asked for was not made, until one is.
        public var problem: String?
    }

    /// A turn's or bend's reaching radius, metres: small, so that the corner-ahead pattern
    /// (15 m before) comes before the waypoint is reached; a poor fix widens it (2 × eph).
    static let walkWaypointRadiusMeters = 8.0
    /// The way's end is kept as a waypoint before the destination when farther from it than
    /// this, metres, so that the last leg leaves the way where the plan does.
    static let walkEndGapMeters = 15.0

    /// Follows `plan` to `destination` in place of whatever was guided to (a `go` or a
    /// `route plan` that follows), announced like any new destination.
    public mutating func startWalk(
        _ plan: WalkPlan, to destination: SavedDestination, profile: String, at seconds: Double, utcSeconds: Int64
    ) -> Outcome {
        markGuidanceStart(utcSeconds: utcSeconds)
        let walk = ActiveWalk(progress: WalkProgress(plan: plan, plannedSeconds: seconds), destination: destination, profile: profile)
        target = .route(ActiveRoute(name: destination.name, follower: walkFollower(plan, to: destination), walk: walk))
        recent.record(SavedDestination(coordinate: destination.coordinate, name: destination.name))
        var effects = guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        effects.append(
            .log(
                .info, "walk planned",
                [
                    "destination": destination.description, "profile": profile, "meters": "\(Int(plan.distanceMeters.rounded()))",
                    "turns": "\(plan.turns.count)",
                ]))
        effects += [.save(.target), .save(.recent)]
        return Outcome(effects: effects, reply: .success(.ok), done: "guiding along the walk")
    }

    /// A plan asked for by `Effect.planWalk` came back: followed from its first waypoint, or,
    /// when it failed, the old one kept and the reason shown in status. A plan for a walk no
    /// longer followed (the wearer chose elsewhere meanwhile) is dropped.
    public mutating func walkPlanned(_ result: Result<WalkPlan, WalkPlanFailure>, to destination: Coordinate, at seconds: Double)
        -> [Effect]
    {
        guard case .route(var route) = target, var walk = route.walk, walk.destination.coordinate == destination else { return [] }
        switch result {
        case .failure(let failure):
            walk.progress.planFailed(at: seconds)
            walk.problem = failure.reason
            route.walk = walk
            target = .route(route)
            return [.log(.warning, "cannot plan the walk again; the old plan is kept", ["error": failure.reason])]
        case .success(let plan):
            let replans = walk.progress.replans + 1
            walk.progress = WalkProgress(plan: plan, plannedSeconds: seconds, replans: replans)
            walk.problem = nil
            route.follower = walkFollower(plan, to: walk.destination)
            route.walk = walk
            target = .route(route)
            var effects = guide(to: currentDestination, announcing: .waypointReached, at: seconds)
            effects.append(
                .log(.notice, "walk planned again", ["replans": "\(replans)", "meters": "\(Int(plan.distanceMeters.rounded()))"]))
            effects.append(.save(.target))
            return effects
        }
    }

    /// Why a plan was not made, as the executor's planner said it.
    public struct WalkPlanFailure: Error, Sendable, Equatable {
        /// The sentence.
        public var reason: String

        public init(_ reason: String) { self.reason = reason }
    }

    /// After the route follower took a fix: the corner ahead, or a new plan when the wearer
    /// strayed.
    mutating func watchWalk(_ fix: Fix, here: Coordinate, at seconds: Double, into outcome: inout FixOutcome) {
        guard case .route(var route) = target, var walk = route.walk, !route.follower.isFinished else { return }
        let event = walk.progress.update(
            position: here, errorMeters: fix.horizontalErrorMeters, speedMetersPerSecond: fix.speedMetersPerSecond,
            waypoint: route.follower.index, seconds: seconds)
        route.walk = walk
        target = .route(route)
        switch event {
        case nil: break
        case .cornerAhead(let turn):
            if !isMuted { outcome.effects.append(.play(.cornerAhead)) }
            outcome.effects.append(.log(.info, "corner ahead", ["turn": "\(turn + 1) of \(walk.progress.plan.turns.count)"]))
        case .strayed(let meters):
            outcome.effects.append(
                .log(.notice, "off the path; planning the walk again", ["meters": "\(Int(meters.rounded()))"]))
            outcome.effects.append(.planWalk(from: here, to: walk.destination.coordinate, profile: walk.profile))
        }
    }

    /// The route follower of a plan: its waypoints (turns and bends), then the destination.
    private func walkFollower(_ plan: WalkPlan, to destination: SavedDestination) -> RouteFollower {
        var waypoints = plan.waypoints.map {
            RouteFollower.Waypoint(coordinate: plan.shape[$0], radiusMeters: Self.walkWaypointRadiusMeters)
        }
        let place = RouteFollower.Waypoint(
            coordinate: destination.coordinate, name: destination.name, radiusMeters: destination.arrivalRadiusMeters)
        if let end = waypoints.last,
            Geodesic.wgs84.inverse(from: end.coordinate, to: destination.coordinate).distanceMeters <= Self.walkEndGapMeters
        {
            waypoints[waypoints.count - 1] = place
        } else {
            waypoints.append(place)
        }
        var settings = RouteFollower.Settings()
        settings.arrivalRadiusMeters = pipeline.navigator.settings.arrivalRadiusMeters
        return RouteFollower(waypoints: waypoints, settings: settings)
    }
}
