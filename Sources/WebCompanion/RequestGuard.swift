/// The checks every request passes before it is routed, against two attacks on a page served
/// on a local network (see ../shared/reference/companion.md §3):
/// - DNS rebinding: a site the phone visits makes its own name resolve to the Pi, and its
///   script then talks to the companion as a same-origin page. Its requests carry the
///   attacker's name in `Host`, so only the listen address and the names the user listed pass
///   (answered 421 Misdirected Request otherwise, as Syncthing and Transmission do).
/// - Cross-site requests: a foreign page posting to the companion. The session cookie is
///   SameSite=Strict, and a state-changing request whose `Origin` is not ours is refused (403).
/// Pure.
public struct RequestGuard: Sendable {
    /// The `Host` values accepted, lower case: `127.0.0.1:8740`, `waypoint.local:8740`.
    public let hosts: Set<String>
    /// The `Origin` values accepted: each host with the scheme served.
    public let origins: Set<String>

    /// A guard for a server at `address` (its port the one actually listened on) that may also
    /// be reached by `names`.
    public init(address: ListenAddress, names: [String], tls: Bool) {
        var hosts: Set<String> = address.isWildcard ? [] : [address.description.lowercased()]
        for name in names { hosts.insert("\(name.lowercased()):\(address.port)") }
        // A browser leaves the port out of Host when it is the scheme's own.
        if address.port == (tls ? 443 : 80) {
            if !address.isWildcard { hosts.insert(address.isIPv6 ? "[\(address.host)]" : address.host) }
            for name in names { hosts.insert(name.lowercased()) }
        }
        self.hosts = hosts
        let scheme = tls ? "https://" : "http://"
        origins = Set(hosts.map { scheme + $0 })
    }

    /// What is wrong with a request, or nil when it may be routed.
    public func refusal(of request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.header("host"), hosts.contains(host.lowercased()) else {
            return .error(421, "this server answers to \(hosts.sorted().joined(separator: " or ")) only; add the name you used to host-names in waypoint-web.conf")
        }
        let changesState = !["GET", "HEAD", "OPTIONS"].contains(request.method)
        if changesState, let origin = request.header("origin"), !origins.contains(origin.lowercased()) {
            return .error(403, "a request from another site (\(origin)) may not change anything here")
        }
        return nil
    }
}
