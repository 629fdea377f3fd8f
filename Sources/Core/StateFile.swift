/// The files in the state directory, one per concern, so that a damaged file costs only its
/// own item and a save rewrites only what changed.
///
/// Each file is a small JSON object with a `version` field (see ``StateStore`` for the format).
/// Beside each file there may be, briefly, `<name>.tmp` (a save in progress) and, after a
/// damaged file was found, `<name>.corrupt` (the newest damaged copy, kept for a person to look
/// at).
public enum StateFile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// What is being guided to, a destination or a route and the leg reached, or nothing:
    /// `target.json`. One file, so that a save that fails leaves the old target whole and one
    /// that succeeds leaves the new one: never neither (a full disk once kept neither, when the
    /// route's file could not be written and the destination's was removed).
    case target = "target.json"
    /// The most recent destinations: `recent.json`.
    case recent = "recent.json"
    /// Whether the motor is muted: `mute.json`.
    case mute = "mute.json"
    /// The magnetometer calibration: `calibration.json`.
    case calibration = "calibration.json"
    /// The wearer's named places: `places.json`.
    case places = "places.json"

    /// The largest file read, in bytes: five recent destinations with long names fit many
    /// times over in 64 KiB; a target's route of ``SavedRoute/maximumWaypoints`` or the
    /// ``PlaceBook/maximumPlaces`` places, each with a 100-character name, in 1 MiB. Anything
    /// bigger is not a file this daemon wrote.
    public var maximumBytes: Int {
        switch self {
        case .recent, .mute, .calibration: 65_536
        case .target, .places: 1 << 20
        }
    }

    /// The files this one replaced, read when it is missing (a state directory an earlier
    /// build wrote) and removed once it is saved: `destination.json` and `route.json`
    /// held the target apart.
    public var legacyFileNames: [String] {
        self == .target ? [Self.legacyDestinationFileName, Self.legacyRouteFileName] : []
    }

    /// The destination's own file before ``target``: `{"destination": {…} or null, "version": 1}`.
    package static let legacyDestinationFileName = "destination.json"
    /// The route's own file before ``target``: `{"route": {…} or null, "version": 1}`.
    static let legacyRouteFileName = "route.json"

    /// The file's name in the state directory.
    public var fileName: String { rawValue }

    /// The name a save writes first, then renames over ``fileName``.
    public var temporaryFileName: String { rawValue + ".tmp" }

    /// The name a damaged file is moved to.
    public var corruptFileName: String { rawValue + Self.corruptSuffix }

    /// What a damaged file's name gets when it is set aside.
    package static let corruptSuffix = ".corrupt"

    public var description: String { rawValue }
}
