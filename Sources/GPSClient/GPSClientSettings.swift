/// Timing of the gpsd client. Defaults suit a walker and a 1 Hz receiver.
public struct GPSClientSettings: Sendable, Equatable {
    /// Report `noData` after this long without any report from gpsd. Default 3 s.
    public var noDataTimeout: Duration = .seconds(3)
    /// How long to wait for the rest of an epoch (gpsd sends one report per NMEA sentence; the
    /// one with the receiver's course often comes last) before passing on what arrived.
    /// Default 1 s, one epoch of a 1 Hz receiver.
    public var epochHold: Duration = .seconds(1)
    /// First wait before reconnecting; doubles after each failure. Default 0.25 s.
    public var reconnectMinimum: Duration = .milliseconds(250)
    /// Longest wait between reconnection attempts. Default 2 s, so fixes resume within about
    /// 3 s of gpsd's return.
    public var reconnectMaximum: Duration = .seconds(2)

    /// The defaults.
    public init() {}
}
