import Geodesy
import GPSClient
import SystemSupport

/// The simulated receiver as a fix source: it wakes when the next fix is due on the world's
/// clock and reports the fixes the world made (``SimulatedWorld``), as the libgps reader reports
/// gpsd's. It says it is connected at once (to `simulated:0`).
struct SimulatedGPSSource: GPSFixSource {
    /// The address it reports: there is no gpsd.
    static let address = GPSServerAddress(host: "simulated", port: 0)

    let world: SimulatedWorld

    func run(until stop: GPSStop, deliver: (GPSEvent) -> Void) {
        deliver(.connected(Self.address))
        var fixes: [Fix] = []
        fixes.reserveCapacity(SimulatedWorld.maximumPendingFixes)
        while !stop.isStopped {
            let next = world.takeFixes(into: &fixes)
            for fix in fixes { deliver(.fix(fix)) }
            stop.sleep(for: world.clock.realDuration(of: world.clock.now.duration(to: next)))
        }
    }
}
