import Geodesy
import GPSClient
import SystemSupport

/// The simulated receiver as a fix source: a thread of its own that wakes when the next fix is
/// due on the world's clock and reports it, as the libgps reader reports gpsd's. It says it is
/// connected at once (to `simulated:0`), and stops when the consumer stops listening.
struct SimulatedGPSSource: GPSFixSource {
    /// The address it reports: there is no gpsd.
    static let address = GPSServerAddress(host: "simulated", port: 0)

    let world: SimulatedWorld

    func events() -> AsyncStream<GPSEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(16))
        let alarm = ThreadAlarm(clock: world.clock)
        continuation.onTermination = { _ in alarm.stop() }
        continuation.yield(.connected(Self.address))
        do throws(Errno) {
            try BlockingThread.start { [world] in
                while !alarm.isStopped {
                    let next = world.takeFixes { continuation.yield(.fix($0)) }
                    _ = alarm.wait(until: next)
                }
                continuation.finish()
            }
        } catch {
            continuation.yield(.failure(.threadUnavailable(error)))
            continuation.finish()
        }
        return stream
    }
}
