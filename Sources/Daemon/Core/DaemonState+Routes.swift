import ControlProtocol
import Geodesy
import Guidance

// Routes (issue 19): the daemon guides to one waypoint at a time and moves on when a fix
// reaches or passes it (``RouteFollower`` decides); the navigator arrives only at the last.

extension DaemonState {
    // MARK: - On the sensor path (no allocation)

    /// Keeps the fix for `place mark` and gives it to the route, if one is walked. When the
    /// route moves on, the next waypoint is set first (with `waypoint-reached`), so the
    /// navigator takes the fix against it and never arrives at a waypoint that is not the last.
    ///
    /// - Returns: The new waypoint as a `destination` event, when the route moved on.
    mutating func followRoute(_ fix: Fix, at seconds: Double, actions: inout Navigator.Actions) -> RecordingEvent? {
        guard fix.hasPosition, let here = fix.coordinate else { return nil }
        recentFixes.add(PositionAverage.Sample(coordinate: here, errorMeters: fix.horizontalErrorMeters, seconds: seconds))
        // Only fixes the navigator would guide with, so that both judge arrival alike.
        guard follower != nil, (fix.horizontalErrorMeters ?? 0) <= pipeline.navigator.settings.maximumPositionErrorMeters,
            let event = follower?.update(position: here, errorMeters: fix.horizontalErrorMeters)
        else { return nil }
        routeEvent = event
        guard event != .finished, let next = follower?.current else { return nil }
        actions += pipeline.guide(
            to: next.coordinate, arrivalRadiusMeters: next.radiusMeters, announcing: .waypointReached, at: seconds)
        return RecordingEvent(seconds: seconds, kind: .destination(next.coordinate, name: next.name))
    }

    /// After a fix moved the route on: the line to log, the world told of the new waypoint,
    /// and the progress saved, so that a restart resumes at this leg.
    public mutating func routeProgress(at seconds: Double) -> [Effect] {
        guard let event = routeEvent, let follower, var route = saved.route else {
            routeEvent = nil
            return []
        }
        routeEvent = nil
        route.index = follower.index
        saved.route = route
        let count = route.waypoints.count
        func describe(_ index: Int) -> [String: String] {
            ["waypoint": "\(index + 1) of \(count)", "name": route.waypoints[index].name ?? "", "route": route.name ?? ""]
        }
        var effects: [Effect]
        switch event {
        case .reached(let index): effects = [.log(.info, "waypoint reached", describe(index))]
        case .passed(let index): effects = [.log(.info, "waypoint passed", describe(index))]
        case .finished: effects = [.log(.info, "route finished", describe(count - 1))]
        }
        if let next = follower.current { effects.append(.destinationChanged(next.coordinate)) }
        effects.append(saveRoute(failure: "the route's progress could not be saved"))
        return effects
    }

    // MARK: - Requests

    /// `route`: show, load, move along, reverse or drop the route.
    public mutating func route(_ action: RouteAction, at seconds: Double) -> Outcome<RouteReport?> {
        switch action {
        case .show:
            return Outcome(effects: [], reply: .success(routeReport()))
        case .load(let name, let points):
            let waypoints = points.map {
                SavedDestination(
                    coordinate: Coordinate(uncheckedLatitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude),
                    name: $0.name, arrivalRadiusMeters: $0.radiusMeters)
            }
            let route = SavedRoute(name: name, waypoints: waypoints)
            saved.route = route
            saved.destination = nil
            follower = Self.follower(for: route, settings: pipeline.navigator.settings)
            var effects = guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
            effects.append(
                .log(.info, "route loaded", ["route": name ?? "", "waypoints": "\(waypoints.count)"]))
            effects.append(saveRoute(failure: "guiding along the route, but it could not be saved"))
            effects.append(
                .save(
                    Save(
                        change: .destination(nil), failureLog: "cannot save the destination",
                        failureReply: "guiding along the route, but the old destination could not be cleared")))
            return Outcome(effects: effects, reply: .success(routeReport()))
        case .next, .previous:
            guard follower != nil else { return Outcome(effects: [], reply: .failure(Self.noRoute)) }
            let forward = action == .next
            guard follower!.skip(by: forward ? 1 : -1) else {
                return Outcome(
                    effects: [],
                    reply: .failure(
                        ControlError(.refused, forward ? "already at the last waypoint" : "already at the first waypoint")))
            }
            return moved(forward ? "route skipped on" : "route stepped back", at: seconds)
        case .reverse:
            guard follower != nil else { return Outcome(effects: [], reply: .failure(Self.noRoute)) }
            follower!.reverse()
            saved.route?.waypoints.reverse()
            return moved("route reversed", at: seconds)
        case .clear:
            guard saved.route != nil else { return Outcome(effects: [], reply: .failure(Self.noRoute)) }
            return Outcome(effects: clear(at: seconds).effects, reply: .success(nil))
        }
    }

    private static let noRoute = ControlError(.refused, "no route is loaded; load one with route load")

    /// After `next`, `previous` or `reverse`: guide to the new waypoint and save where the
    /// route stands.
    private mutating func moved(_ message: String, at seconds: Double) -> Outcome<RouteReport?> {
        guard let follower else { return Outcome(effects: [], reply: .failure(Self.noRoute)) }
        saved.route?.index = follower.index
        routeEvent = nil
        var effects = guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        effects.append(.log(.info, message, ["waypoint": "\(follower.index + 1) of \(follower.waypoints.count)"]))
        effects.append(saveRoute(failure: "guiding to the waypoint, but the route's progress could not be saved"))
        return Outcome(effects: effects, reply: .success(routeReport()))
    }

    /// Drops the route (for `go` and `clear`): nothing if none is walked.
    mutating func dropRoute() -> [Effect] {
        guard saved.route != nil || follower != nil else { return [] }
        saved.route = nil
        follower = nil
        routeEvent = nil
        return [.log(.info, "route dropped", [:]), saveRoute(failure: "the dropped route could not be forgotten")]
    }

    /// At start: the route resumes at the waypoint it had reached.
    mutating func restore(_ route: SavedRoute, at seconds: Double) -> [Effect] {
        follower = Self.follower(for: route, settings: pipeline.navigator.settings)
        var effects: [Effect] = [
            .log(
                .info, "route restored",
                ["route": route.name ?? "", "waypoint": "\(min(route.index + 1, route.waypoints.count)) of \(route.waypoints.count)"])
        ]
        effects += guide(to: currentDestination, announcing: .destinationAccepted, at: seconds)
        return effects
    }

    private func saveRoute(failure: String) -> Effect {
        .save(Save(change: .route(saved.route), failureLog: "cannot save the route", failureReply: failure))
    }

    private static func follower(for route: SavedRoute, settings: Navigator.Settings) -> RouteFollower {
        var followerSettings = RouteFollower.Settings()
        followerSettings.arrivalRadiusMeters = settings.arrivalRadiusMeters
        return RouteFollower(
            waypoints: route.waypoints.map {
                RouteFollower.Waypoint(coordinate: $0.coordinate, name: $0.name, radiusMeters: $0.arrivalRadiusMeters)
            },
            index: route.index, settings: followerSettings)
    }

    // MARK: - Status

    /// Where the route stands, for `STATUS` and `ROUTE`; nil without one.
    func routeReport() -> RouteReport? {
        guard let follower, let route = saved.route, let target = currentDestination else { return nil }
        let remaining = pipeline.fix?.coordinate.map { (follower.remainingMeters(from: $0) * 10).rounded() / 10 }
        return RouteReport(
            name: route.name, waypoint: min(follower.index + 1, route.waypoints.count), count: route.waypoints.count,
            target: Self.report(target), remainingMeters: remaining, isFinished: follower.isFinished)
    }
}
