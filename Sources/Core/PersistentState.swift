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
    /// The route being walked, with its progress; nil when none is.
    public var route: SavedRoute?
    /// The wearer's named places.
    public var places: PlaceBook

    /// State from its parts; the defaults are what a fresh install starts with.
    public init(
        destination: SavedDestination? = nil, recent: RecentDestinations = RecentDestinations(), muted: Bool = false,
        calibration: SavedCalibration? = nil, route: SavedRoute? = nil, places: PlaceBook = PlaceBook()
    ) {
        self.route = route
        self.places = places
        self.destination = destination
        self.recent = recent
        self.muted = muted
        self.calibration = calibration
    }

    /// Nothing saved: no destination, no recent ones, not muted, not calibrated, no route, no places.
    public static let initial = PersistentState()
}
