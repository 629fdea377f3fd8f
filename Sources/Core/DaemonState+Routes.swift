import ControlProtocol
import Geodesy
import Guidance

// Routes (issue 19): the daemon guides to one waypoint at a time and moves on when a fix
// reaches or passes it (``RouteFollower`` decides); the navigator arrives only at the last.

extension DaemonState {
    // MARK: - On a fix

    /// Gives the fix to the route, if one is walked. When the route moves on, the next
    /// waypoint is set first (with `waypoint-reached`), so the navigator takes the fix against
    /// it and never arrives at a waypoint that is not the last; then the progress is logged and
    /// saved, so that a restart resumes at this leg.
    mutating func followRoute(_ fix: Fix, at seconds: Double, into outcome: inout FixOutcome) {
        // Only fixes the navigator would guide with, so that both judge arrival alike.
        guard case .route(var route) = target, let here = fix.coordinate,
            (fix.horizontalErrorMeters ?? 0) <= pipeline.navigator.settings.maximumPositionErrorMeters
        else { return }
        // The follower counts the fixes that confirm an arrival: it changes on every fix.
        let event = route.follower.update(position: here, errorMeters: fix.horizontalErrorMeters)
        target = .route(route)
        guard let event else { return }
        let follower = route.follower
        if event != .finished, let next = follower.current {
            outcome.actions += pipeline.guide(
                to: next.coordinate, arrivalRadiusMeters: next.radiusMeters, announcing: .waypointReached, at: seconds)
            outcome.waypointRecord = RecordingEvent(seconds: seconds, kind: .destination(next.coordinate, name: next.name))
        }
        let count = follower.waypoints.count
        func describe(_ index: Int) -> [String: String] {
            ["waypoint": "\(index + 1) of \(count)", "name": follower.waypoints[index].name ?? "", "route": route.name ?? ""]
        }
        switch event {
        case .reached(let index): outcome.effects.append(.log(.info, "waypoint reached", describe(index)))
        case .passed(let index): outcome.effects.append(.log(.info, "waypoint passed", describe(index)))
        case .finished: outcome.effects.append(.log(.info, "route finished", describe(count - 1)))
        }
        if let next = follower.current { outcome.effects.append(.destinationChanged(next.coordinate)) }
        outcome.effects.append(.save(.target))
    }

    // MARK: - Requests

    /// `route`: show, load, move along, reverse or drop the route.
    mutating func route(_ action: RouteAction, at seconds: Double) -> Outcome {
        switch action {
        case .show:
            return .answer(.route)
        case .plan:
            // Routino runs outside the state: DaemonCore plans, then starts the walk with
            // `startWalk`.
            return .answer(.ok)
        case .load(let name, let points):
            let waypoints = points.map {
                SavedDestination(
                    coordinate: Coordinate(uncheckedLatitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude),
                    name: $0.name, arrivalRadiusMeters: $0.radiusMeters)
            }
            return load(SavedRoute(name: name, waypoints: waypoints), at: seconds)
        case .next, .previous:
            guard case .route(var route) = target else { return .refused(.noRoute) }
            let forward = action == .next
            // Skipping on from a finished route would step back to its last waypoint, unfinish
            // it and play accepted and arrived again.
            if forward, route.follower.isFinished { return .refused(.routeFinished) }
            guard route.follower.skip(by: forward ? 1 : -1) else { return .refused(.routeEnd(atLast: forward)) }
            target = .route(route)
            return moved(forward ? "route skipped on" : "route stepped back", at: seconds)
        case .reverse:
            guard case .route(var route) = target else { return .refused(.noRoute) }
            route.follower.reverse()
            target = .route(route)
            return moved("route reversed", at: seconds)
        case .clear:
            guard target.route != nil else { return .refused(.noRoute) }
            let cleared = clear(at: seconds)
            return Outcome(effects: cleared.effects, reply: .success(.route), done: cleared.done)
        }
    }

    /// Loads a route (a GPX file's, or the trail walked back) in place of whatever was guided
    /// to, and guides to its first waypoint.
    mutating func load(_ route: SavedRoute, at seconds: Double) -> Outcome {
        target = .route(ActiveRoute(name: route.name, follower: Self.follower(for: route, settings: pipeline.navigator.settings)))
        var effects = guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        effects.append(.log(.info, "route loaded", ["route": route.name ?? "", "waypoints": "\(route.waypoints.count)"]))
        effects.append(.save(.target))
        return Outcome(effects: effects, reply: .success(.route), done: "guiding along the route")
    }

    /// After `next`, `previous` or `reverse`: guide to the new waypoint and save where the
    /// route stands.
    private mutating func moved(_ message: String, at seconds: Double) -> Outcome {
        guard let follower = target.route?.follower else { return .refused(.noRoute) }
        var effects = guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        effects.append(.log(.info, message, ["waypoint": "\(follower.index + 1) of \(follower.waypoints.count)"]))
        effects.append(.save(.target))
        return Outcome(effects: effects, reply: .success(.route), done: "guiding to the waypoint")
    }
}
