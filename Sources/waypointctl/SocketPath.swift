/// Where the daemon's control socket is: `--socket PATH`, else `$WAYPOINT_SOCKET`, else the
/// daemon's own default.
enum SocketPath {
    /// The daemon's default socket (`socket` in waypointd.conf, `Configuration.socketPath`;
    /// waypointctl may not import the Daemon target, so the value is repeated here).
    static let defaultPath = "/run/waypointd/control.sock"
    /// The environment variable that overrides ``defaultPath`` for a whole shell session, e.g.
    /// for a daemon started with `--socket` during development.
    static let environmentVariable = "WAYPOINT_SOCKET"

    /// The path to use.
    /// - Parameters:
    ///   - option: `--socket`'s value, if given.
    ///   - environment: `$WAYPOINT_SOCKET`, if set; an empty value counts as unset.
    static func resolve(option: String?, environment: String?) -> String {
        if let option { return option }
        if let environment, !environment.isEmpty { return environment }
        return defaultPath
    }
}
