/// How far a magnetic compass can be trusted at a place, from the horizontal intensity H
/// (MIL-PRF-89500B zones, as NOAA's WMM software reports them).
public enum CompassZone: Sendable, Equatable, CaseIterable {
    /// H ≥ 6000 nT: the declination is as reliable as the error model says.
    case normal
    /// 2000 nT ≤ H < 6000 nT: compass accuracy may be degraded.
    case caution
    /// H < 2000 nT (or unknown): the declination is unreliable and compass accuracy is highly
    /// degraded; do not steer by a magnetic heading.
    case blackout

    /// Horizontal intensity below which a place is in the caution zone, nanotesla.
    public static let cautionHorizontalIntensityNanotesla = 6000.0
    /// Horizontal intensity below which a place is in the blackout zone, nanotesla.
    public static let blackoutHorizontalIntensityNanotesla = 2000.0

    /// The zone for a horizontal intensity.
    ///
    /// - Parameter horizontalIntensityNanotesla: H, nanotesla. NaN gives `.blackout`, since
    ///   nothing can be trusted about an unknown field.
    public init(horizontalIntensityNanotesla h: Double) {
        if !(h >= Self.blackoutHorizontalIntensityNanotesla) {
            self = .blackout
        } else if h < Self.cautionHorizontalIntensityNanotesla {
            self = .caution
        } else {
            self = .normal
        }
    }
}
