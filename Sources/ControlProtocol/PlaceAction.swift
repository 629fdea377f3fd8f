/// What a `place` request asks: `{"cmd":"place","action":…}`. Names keep ``PlaceName``'s
/// rules and are matched regardless of case.
public enum PlaceAction: Sendable, Hashable {
    /// `list` (the default): every place.
    case list
    /// `add`: keep a place, `{"action":"add","name":…,"lat":…,"lon":…,"radius":…}`; with
    /// `"replace":true` it replaces the place of that name.
    case add(DestinationReport, replacing: Bool)
    /// `mark`: keep the wearer's position, averaged over the fixes of the last `seconds`:
    /// `{"action":"mark","name":…,"seconds":5,"radius":…}`.
    case mark(name: String, seconds: Double, radiusMeters: Double?, replacing: Bool)
    /// `rename`: `{"action":"rename","name":…,"to":…}`.
    case rename(String, to: String)
    /// `remove`: `{"action":"remove","name":…}`.
    case remove(String)

    /// The action's wire name.
    public var name: String {
        switch self {
        case .list: "list"
        case .add: "add"
        case .mark: "mark"
        case .rename: "rename"
        case .remove: "remove"
        }
    }

    /// Every action's wire name, for messages and help.
    public static let names = ["list", "add", "mark", "rename", "remove"]

    /// The longest `mark` may average over, seconds: the daemon keeps this much of fixes.
    public static let maximumMarkSeconds = 30.0
    /// What `mark` averages over when the request does not say, seconds.
    public static let defaultMarkSeconds = 5.0
}
