/// What a `route` request asks: `{"cmd":"route","action":…}`.
public enum RouteAction: Sendable, Hashable {
    /// `show` (the default): report the route.
    case show
    /// `load`: follow these waypoints, in order, from the first; `name` may be null.
    /// `{"action":"load","name":"Loop","waypoints":[{"lat":…,"lon":…,"name":…,"radius":…},…]}`
    case load(name: String?, waypoints: [DestinationReport])
    /// `next`: skip to the following waypoint.
    case next
    /// `previous`: go back to the waypoint before.
    case previous
    /// `reverse`: walk the route the other way, back to the waypoint last left behind.
    case reverse
    /// `clear`: drop the route and stop guiding.
    case clear

    /// The action's wire name.
    public var name: String {
        switch self {
        case .show: "show"
        case .load: "load"
        case .next: "next"
        case .previous: "previous"
        case .reverse: "reverse"
        case .clear: "clear"
        }
    }

    /// Every action's wire name, for messages and help.
    public static let names = ["show", "load", "next", "previous", "reverse", "clear"]
}
