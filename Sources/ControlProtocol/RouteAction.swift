/// What a `route` request asks: `{"cmd":"route","action":…}`.
public enum RouteAction: Sendable, Hashable {
    /// `show` (the default): report the route.
    case show
    /// `load`: follow these waypoints, in order, from the first; `name` may be null.
    /// `{"action":"load","name":"Loop","waypoints":[{"lat":…,"lon":…,"name":…,"radius":…},…]}`
    case load(name: String?, waypoints: [DestinationReport])
    /// `plan`: a walk over the streets from `from` (nil: the fix) to the point `lat`, `lon`
    /// (`name`), for `profile` (`foot`, `wheelchair`); answered with `PLAN`. With `follow`, the
    /// daemon guides along it as a route, planned again when the wearer strays.
    /// `{"action":"plan","lat":…,"lon":…,"from":{"lat":…,"lon":…},"profile":"foot","follow":true}`
    case plan(from: DestinationReport?, to: DestinationReport, profile: String, follow: Bool)
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
        case .plan: "plan"
        case .next: "next"
        case .previous: "previous"
        case .reverse: "reverse"
        case .clear: "clear"
        }
    }

    /// Every action's wire name, for messages and help.
    public static let names = ["show", "load", "plan", "next", "previous", "reverse", "clear"]

    /// The walking profiles a plan may ask for: Routino's.
    public static let profiles = ["foot", "wheelchair"]
}
