/// Everything the daemon keeps across restarts (DESIGN.md §1, "Persistence").
public struct PersistentState: Sendable, Hashable {
    /// The destination being guided to; nil when idle.
    public var destination: SavedDestination?
    /// The most recent destinations, newest first.
    public var recent: RecentDestinations
    /// Whether the wearer muted the motor.
    public var muted: Bool
    /// The magnetometer calibration; nil when the device has not been calibrated.
    public var calibration: SavedCalibration?

    /// State from its parts; the defaults are what a fresh install starts with.
    public init(
        destination: SavedDestination? = nil, recent: RecentDestinations = RecentDestinations(), muted: Bool = false,
        calibration: SavedCalibration? = nil
    ) {
        self.destination = destination
        self.recent = recent
        self.muted = muted
        self.calibration = calibration
    }

    /// Nothing saved: no destination, no recent ones, not muted, not calibrated.
    public static let initial = PersistentState()
}
