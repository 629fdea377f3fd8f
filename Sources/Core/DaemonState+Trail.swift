import ControlProtocol
import Geodesy

// The breadcrumb trail (issue 19): the core keeps its state (``TrailLog``) and asks for appends
// as effects; `track export` pages through the files and the waiting points, `back` walks them
// in reverse as a route.

extension DaemonState {
    /// What came of an append asked for by ``Effect/appendTrail(_:)``.
    public mutating func trailWritten(_ append: TrailLog.Append, _ outcome: TrailLog.Written) {
        trail.written(append, outcome)
    }

    /// At stop: the append of the points still waiting, if any.
    public mutating func flushTrail() -> TrailLog.Append? { trail.flush() }

    /// `track`: a page of the trail, or the trail forgotten.
    ///
    /// - Parameter storedTrail: The files' bytes; nil when this daemon keeps no trail files.
    mutating func track(_ action: TrackAction, storedTrail: [UInt8]?) -> Outcome {
        guard let storedTrail else { return .refused(.noTrailKept) }
        switch action {
        case .clear:
            let generation = trail.clear()
            return Outcome(
                effects: [.clearTrail(generation: generation), .log(.info, "trail cleared", [:])], reply: .success(.ok),
                done: "cleared")
        case .export(let since, let until, let cursorText):
            var cursor: TrailLog.Cursor?
            if let cursorText {
                guard let parsed = TrailLog.Cursor(text: cursorText) else { return .refused(.badCursor) }
                cursor = parsed
            }
            do throws(TrailLog.PageError) {
                let page = try trail.page(
                    stored: storedTrail, from: cursor, since: since ?? -.infinity, until: until ?? .infinity,
                    limit: TrackAction.pagePoints)
                return .answer(.trackPage(page))
            } catch {
                return .refused(.trailRotated)
            }
        }
    }

    /// `back`: the trail walked in reverse, loaded as a route: of the last `minutes`, else since
    /// guidance last started (a mark the trail keeps across restarts), else since the daemon
    /// started.
    mutating func back(minutes: Double?, storedTrail: [UInt8]?, at seconds: Double) -> Outcome {
        guard let storedTrail else { return .refused(.noTrailKept) }
        let guidanceStart = minutes == nil ? trail.latestGuidanceStart(stored: storedTrail) : nil
        let since = minutes.map { (trail.latestSeconds ?? 0) - $0 * 60 } ?? guidanceStart ?? trail.sessionStartSeconds ?? .infinity
        let waypoints = BackRoute.waypoints(from: trail.points(stored: storedTrail, since: since).map(\.coordinate))
        guard !waypoints.isEmpty else {
            return .refused(guidanceStart != nil ? .noTrailSinceGuidance : .noTrail(minutes: minutes))
        }
        return load(SavedRoute(name: "back", waypoints: waypoints), at: seconds)
    }

    /// Marks the trail where guidance starts (`go`, `route load`), at the latest fix's time, or
    /// the wall clock's before any fix.
    mutating func markGuidanceStart(utcSeconds: Int64) {
        trail.guidanceStarted(atUTC: pipeline.fix?.time?.posixSeconds ?? Double(utcSeconds))
    }
}
