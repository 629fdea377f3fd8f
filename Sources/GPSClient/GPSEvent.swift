import Geodesy

/// What a fix source tells its consumer, in order.
public enum GPSEvent: Sendable, Equatable {
    /// gpsd accepted our request and will stream reports.
    case connected(GPSServerAddress)
    /// One report per fix epoch. A report with mode `.noFix` says the receiver has lost (or
    /// never had) its fix; it comes once per loss, not once per second.
    case fix(Fix)
    /// Nothing at all came from gpsd for this long: the receiver, gpsd or the connection is
    /// down. Reported once per silence; the next report ends it.
    case noData(seconds: Double)
    /// A problem the source is already recovering from, by reconnecting with backoff.
    case failure(GPSClientError)
}
