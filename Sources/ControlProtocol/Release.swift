// ControlProtocol: wire types and framing shared by waypointd and waypointctl (issue 7).

/// The release of waypointd and waypointctl, reported by `--version` and in the protocol greeting.
public enum Release {
    /// Semantic version of this build.
    public static let version = "0.1.0"
}
