import Geodesy
import GPSClient
import SystemSupport

/// The GPS client: every event of the fix source (gpsd through libgps, or the simulated
/// receiver) to the core, on the source's schedule. gpsd missing or silent is retried every few
/// seconds for as long as it lasts: one spell in the log, not a line per attempt.
struct GPSService: Service {
    var name: String { "gps" }

    let source: any GPSFixSource
    let core: DaemonCore<ScaledClock>
    let logger: Logger

    func run() async throws {
        var faults = FaultSpell<ContinuousClock.Instant>(quietInterval: .zero)
        for await event in source.events() {
            switch event {
            case .fix(let fix):
                core.fix(fix)
                if case .ended(let count) = faults.working(at: .now) { logger.notice("gps data again", ["faults": "\(count)"]) }
            case .connected(let server):
                core.gpsChanged(problem: nil)
                var metadata = ["gps.server": "\(server)"]
                if case .ended(let count) = faults.working(at: .now) { metadata["failures"] = "\(count)" }
                logger.info("gps connected", metadata)
            case .noData(let seconds):
                switch faults.fault(at: .now) {
                case .began: logger.warning("no data from gps", ["seconds": "\(Int(seconds))"])
                case .continuing(let count): logger.warning("no data from gps", ["times": "\(count)"])
                case .ended, nil: break
                }
            case .failure(let error):
                core.gpsChanged(problem: "\(error)")
                switch faults.fault(at: .now) {
                case .began: logger.warning("gps problem", ["error": "\(error)"])
                case .continuing(let count): logger.warning("gps problem", ["error": "\(error)", "failures": "\(count)"])
                case .ended, nil: break
                }
            }
        }
    }
}
