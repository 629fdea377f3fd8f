import Geodesy
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
    /// Where the simulated wearer starts (`--simulate-at`); nil: the world's default, the
    /// Champ de Mars in Paris.
    public var simulationStart: Coordinate?
    /// A ``SimulationScript``: what happens to the simulated world, and when (`--simulate-events`).
    public var simulationEventsPath: String?
    /// How much faster than real time the simulated world and the daemon's clock run
    /// (`--simulate-speed`); 1 outside a simulation.
    public var simulationSpeed = 1.0

    public init() {}
}
