import Geodesy
import GPSClient
import SystemSupport

/// The GPS client: a thread of its own on which the fix source (gpsd through libgps, or the
/// simulated receiver) reads, and gives each event to the core there and then: one wake-up per
/// fix and no allocation, no hop to another thread. gpsd missing or silent is retried every few
/// seconds for as long as it lasts: one spell in the log, not a line per attempt.
public struct GPSService: Service {
    public var name: String { "gps" }

    let source: any GPSFixSource
    let core: DaemonCore<ScaledClock>
    let logger: Logger

    /// The client of `source`, not started yet (``run()``).
    public init(source: any GPSFixSource, core: DaemonCore<ScaledClock>, logger: Logger) {
        self.source = source
        self.core = core
        self.logger = logger
    }

    public func run() async throws {
        let stop = GPSStop()
        try await BlockingThread.run(name: "gps", onCancel: { stop.stop() }) { [source, core, logger] in
            var spell = Spell()
            source.run(until: stop) { event in Self.handle(event, core: core, logger: logger, spell: &spell) }
        }
    }

    /// What the thread remembers between events.
    private struct Spell {
        var faults = FaultSpell<ContinuousClock.Instant>(quietInterval: .zero)
        /// The server connected to, for the problem a silent one makes.
        var server: String?
        /// Whether the core was told gpsd went silent (and so must be told when it speaks).
        var isSilent = false
    }

    private static func handle(_ event: GPSEvent, core: DaemonCore<ScaledClock>, logger: Logger, spell: inout Spell) {
        switch event {
        case .fix(let fix):
            if spell.isSilent {
                spell.isSilent = false
                core.gpsChanged(problem: nil)
            }
            core.fix(fix)
            if case .ended(let count) = spell.faults.working(at: .now) { logger.notice("gps data again", ["faults": "\(count)"]) }
        case .connected(let server):
            spell.server = "\(server)"
            spell.isSilent = false
            core.gpsChanged(problem: nil)
            var metadata = ["gps.server": "\(server)"]
            if case .ended(let count) = spell.faults.working(at: .now) { metadata["failures"] = "\(count)" }
            logger.info("gps connected", metadata)
        case .noData(let seconds):
            // Connected, yet nothing comes (a hung gpsd, a receiver unplugged): a problem too.
            spell.isSilent = true
            core.gpsChanged(problem: "no data from gpsd\(spell.server.map { " at \($0)" } ?? "") in the last \(Int(seconds)) s")
            switch spell.faults.fault(at: .now) {
            case .began: logger.warning("no data from gps", ["seconds": "\(Int(seconds))"])
            case .continuing(let count): logger.warning("no data from gps", ["times": "\(count)"])
            case .ended, nil: break
            }
        case .failure(let error):
            core.gpsChanged(problem: "\(error)")
            switch spell.faults.fault(at: .now) {
            case .began: logger.warning("gps problem", ["error": "\(error)"])
            case .continuing(let count): logger.warning("gps problem", ["error": "\(error)", "failures": "\(count)"])
            case .ended, nil: break
            }
        }
    }
}
