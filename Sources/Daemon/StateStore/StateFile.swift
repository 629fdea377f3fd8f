/// The files in the state directory, one per concern, so that a damaged file costs only its
/// own item and a save rewrites only what changed.
///
/// Each file is a small JSON object with a `version` field (see ``StateStore`` for the format).
/// Beside each file there may be, briefly, `<name>.tmp` (a save in progress) and, after a
/// damaged file was found, `<name>.corrupt` (the newest damaged copy, kept for a person to look
/// at).
public enum StateFile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The destination being guided to: `destination.json`.
    case destination = "destination.json"
    /// The most recent destinations: `recent.json`.
    case recent = "recent.json"
    /// Whether the motor is muted: `mute.json`.
    case mute = "mute.json"
    /// The magnetometer calibration: `calibration.json`.
    case calibration = "calibration.json"
    /// The route being walked and the leg reached: `route.json`.
    case route = "route.json"
    /// The wearer's named places: `places.json`.
    case places = "places.json"

    /// The largest file read, in bytes: five recent destinations with long names fit many
    /// times over in 64 KiB; a route of ``SavedRoute/maximumWaypoints`` or the
    /// ``PlaceBook/maximumPlaces`` places, each with a 100-character name, in 1 MiB. Anything
    /// bigger is not a file this daemon wrote.
    public var maximumBytes: Int {
        switch self {
        case .destination, .recent, .mute, .calibration: 65_536
        case .route, .places: 1 << 20
        }
    }

    /// The file's name in the state directory.
    public var fileName: String { rawValue }

    /// The name a save writes first, then renames over ``fileName``.
    public var temporaryFileName: String { rawValue + ".tmp" }

    /// The name a damaged file is moved to.
    public var corruptFileName: String { rawValue + ".corrupt" }

    public var description: String { rawValue }
}
