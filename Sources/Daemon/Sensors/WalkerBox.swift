@preconcurrency import Glibc
import Geodesy
import GPSClient
import Guidance
import Haptics
import Heading
import IMU
import Simulation
import Synchronization
import SystemSupport

/// The simulated wearer, shared by the IMU loop (which moves them), the fix source (which
/// reports where they are) and the core (which tells them where to go).
final class WalkerBox: Sendable {
    let walker: Mutex<SimulatedWalker>
    /// Whether the simulated receiver reports fixes (a script can silence it).
    let isGPSOn = Atomic(true)
    init(_ walker: SimulatedWalker) { self.walker = Mutex(walker) }
}
