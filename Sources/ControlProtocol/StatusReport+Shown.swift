/// What a client may show the wearer from a `STATUS`: one rule for `waypointctl status`, `watch`
/// and any other client, so that none of them gives a direction or a turn that the daemon itself
/// does not trust (issue 30).
extension StatusReport {
    /// The heading to show as a direction, degrees from true north: only a reliable one, and
    /// not in `no-heading` (the navigator found it too old). An unreliable heading (not
    /// calibrated, interference, no IMU) is shown as unknown, with ``Heading/problem`` as the
    /// reason; the raw figures stay in the JSON for tools.
    public var shownHeadingDegrees: Double? { heading.isReliable && state != "no-heading" ? heading.trueDegrees : nil }

    /// The turn to show, degrees (positive: turn right): only while guiding by a shown heading.
    /// In any other state a turn would point somewhere the daemon is not guiding to.
    public var shownTurnDegrees: Double? {
        guard state == "guiding", shownHeadingDegrees != nil else { return nil }
        return errorDegrees
    }
}
