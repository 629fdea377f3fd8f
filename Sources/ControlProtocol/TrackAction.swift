/// What a `track` request asks: `{"cmd":"track","action":…}`.
public enum TrackAction: Sendable, Hashable {
    /// `export`: a page of the breadcrumb trail, points with times (POSIX seconds, UTC) in
    /// `since`…`until` (either may be absent), from `cursor` (the previous page's `next`; absent
    /// for the first): `{"action":"export","since":1782950400,"cursor":"0:81234"}`.
    case export(since: Double?, until: Double?, cursor: String?)
    /// `clear`: forget the whole trail.
    case clear

    /// The action's wire name.
    public var name: String {
        switch self {
        case .export: "export"
        case .clear: "clear"
        }
    }

    /// Every action's wire name.
    public static let names = ["export", "clear"]

    /// The most points one `TRACK` reply carries.
    public static let pagePoints = 1000
}
