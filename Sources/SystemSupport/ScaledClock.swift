/// The daemon's clock: monotonic time since it was made, running ``speed`` times as fast as the
/// real thing. At speed 1 (always, outside a simulation) it is the continuous clock counted from
/// start; `waypointd --simulate --simulate-speed N` runs the simulated world and every clock that
/// dates its events N times faster, so that end-to-end tests need not walk in real time.
///
/// Waits on it (``sleep(until:tolerance:)``, ``ThreadAlarm``) last the real time that makes the
/// clock reach the deadline: a second of it is 1/N of a real second.
public struct ScaledClock: Clock, Sendable {
    /// A moment on the clock: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// How long after the clock's start, on the clock.
        public var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// How many seconds of this clock pass in a real second: 1 outside a simulation.
    public let speed: Double
    private let origin: ContinuousClock.Instant

    /// A clock starting now.
    /// - Parameter speed: Seconds of this clock per real second; positive and finite.
    public init(speed: Double = 1) {
        precondition(speed > 0 && speed.isFinite, "a clock runs forward at a finite speed, not \(speed)")
        self.speed = speed
        origin = .now
    }

    public var now: Instant {
        let real = origin.duration(to: .now)
        return Instant(offset: speed == 1 ? real : real * speed)
    }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// The real time in which this clock advances `duration`.
    public func realDuration(of duration: Duration) -> Duration { speed == 1 ? duration : duration / speed }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(for: realDuration(of: now.duration(to: deadline)), tolerance: tolerance)
    }
}
