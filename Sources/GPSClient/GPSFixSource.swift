import SystemSupport

/// Something that produces GPS fixes: gpsd through libgps in production, a simulated receiver
/// in `--simulate` and in tests.
///
/// A source reads on a thread it is given (``run(until:deliver:)`` blocks) and tells its
/// consumer of each event on that thread, in order: nothing is queued or handed to another
/// thread, so a fix costs its thread one wake-up and no allocation. ``events()`` wraps the same
/// loop in a thread of its own and a stream, for consumers that iterate (`waypointd gps`,
/// `waypointd check`, tests).
public protocol GPSFixSource: Sendable {
    /// Reads until `stop` is stopped, on the calling thread, telling `deliver` of each event.
    /// A source notices a stop within a second.
    func run(until stop: GPSStop, deliver: (GPSEvent) -> Void)
}

extension GPSFixSource {
    /// The events as a stream, read on a thread of their own; the source stops when the consumer
    /// stops iterating. At most the newest 256 events wait unread.
    public func events() -> AsyncStream<GPSEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(256))
        let stop = GPSStop()
        continuation.onTermination = { _ in stop.stop() }
        do throws(Errno) {
            try BlockingThread.start(name: "gps") {
                run(until: stop) { continuation.yield($0) }
                continuation.finish()
            }
        } catch {
            continuation.yield(.failure(.threadUnavailable(error)))
            continuation.finish()
        }
        return stream
    }
}

/// Tells a source's thread to stop, and lets it sleep in a way a stop ends at once.
public final class GPSStop: Sendable {
    private let alarm = ThreadAlarm(clock: ContinuousClock())

    /// A stop not yet given.
    public init() {}

    /// Ends the source's run: its sleep at once, its wait for gpsd within a second.
    public func stop() { alarm.stop() }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { alarm.isStopped }

    /// Sleeps the calling thread for `duration`, or until stopped.
    public func sleep(for duration: Duration) { _ = alarm.wait(until: .now + duration) }
}
