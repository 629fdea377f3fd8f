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

/// How `waypointd` was started.
public struct DaemonOptions: Sendable {
    public var configPath: String?
    public var simulate = false
    public var socketPath: String?
    public var stateDirectory: String?
    public var sysfsRoot: String?
    public var logLevel: Logger.Level?
    public var recordPath: String?
    /// A ``SimulationScript``: what happens to the simulated world, and when (`--simulate-events`).
    public var simulationEventsPath: String?

    public init() {}
}
