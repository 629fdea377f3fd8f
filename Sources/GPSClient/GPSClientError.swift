import SystemSupport

/// What went wrong between us and gpsd. The fix source reports these and keeps retrying.
public enum GPSClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `gps_open` failed: nothing listens there, the host is unknown, …; the text is libgps's.
    case connectFailed(GPSServerAddress, String)
    /// Asking gpsd to stream reports failed.
    case watchFailed(GPSServerAddress, Errno)
    /// The connection closed or broke (gpsd stopped or restarted), or a line overflowed
    /// libgps's buffer; `Errno` is nil when the peer simply closed it.
    case connectionLost(GPSServerAddress, Errno?)
    /// The peer answers, but not in gpsd's JSON protocol; carries the start of what it sent.
    case notGPSD(GPSServerAddress, String)
    /// The thread that reads from gpsd could not be started.
    case threadUnavailable(Errno)

    public var description: String {
        switch self {
        case .connectFailed(let server, let reason):
            "cannot connect to gpsd at \(server): \(reason)"
        case .watchFailed(let server, let errno):
            "cannot ask gpsd at \(server) for reports: \(errno)"
        case .connectionLost(let server, let errno):
            "lost the connection to gpsd at \(server)" + (errno.map { ": \($0)" } ?? " (closed by gpsd)")
        case .notGPSD(let server, let sample):
            "the peer at \(server) does not speak gpsd's JSON protocol; it sent '\(sample)'"
        case .threadUnavailable(let errno):
            "cannot start the gpsd reader thread: \(errno)"
        }
    }
}
