@preconcurrency import Glibc
internal import CGPS
import Geodesy
import SystemSupport

/// One connection to gpsd through libgps. Each libgps call is wrapped here, once, where its
/// return convention is read: `gps_open` returns −1 with a negative `NL_*` code in errno,
/// `gps_read` returns the line length, 0 for "no complete line yet" or −1 for EOF and errors,
/// `gps_waiting` folds errors into false.
///
/// Not thread-safe and not `Sendable`: it lives on the reader thread that created it.
final class LibGPSConnection {
    /// What one `gps_read` produced.
    enum Line {
        /// A position report (a TPV).
        case report(Fix, hasCourse: Bool)
        /// gpsd acknowledged the WATCH request: reports will follow.
        case watching
        /// Another gpsd message (VERSION, DEVICES, SKY, …).
        case other
        /// A line that is not gpsd JSON; carries its start.
        case garbage(String)
        /// No complete line yet.
        case incomplete
        /// The connection closed or failed.
        case closed(Errno?)
    }

    let server: GPSServerAddress
    private let data: UnsafeMutablePointer<gps_data_t>
    // libgps 3.25 keeps these two pointers and compares them on every call, so they must
    // outlive the connection (reference/gpsd.md §3.4).
    private let host: UnsafeMutablePointer<CChar>
    private let port: UnsafeMutablePointer<CChar>
    /// The start of each raw line, to tell garbage from gpsd's messages.
    private var lineStart = [CChar](repeating: 0, count: 64)

    /// Connects to gpsd. Corresponds to `gps_open`.
    /// - Throws: `GPSClientError.connectFailed` with libgps's reason.
    static func open(_ server: GPSServerAddress) throws(GPSClientError) -> LibGPSConnection {
        // A write to a gpsd that has died raises SIGPIPE, which would kill the daemon.
        signal(SIGPIPE, SIG_IGN)
        let host = strdup(server.host)!
        let port = strdup(String(server.port))!
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        guard gps_open(host, port, data) == 0 else {
            // errno holds a negative NL_* code here, which only gps_errstr understands.
            let reason = String(cString: gps_errstr(errno))
            // libgps allocates nothing before the connection succeeds; gps_close must not follow.
            data.deallocate()
            free(host)
            free(port)
            throw .connectFailed(server, reason)
        }
        return LibGPSConnection(server: server, data: data, host: host, port: port)
    }

    private init(
        server: GPSServerAddress, data: UnsafeMutablePointer<gps_data_t>,
        host: UnsafeMutablePointer<CChar>, port: UnsafeMutablePointer<CChar>
    ) {
        self.server = server
        self.data = data
        self.host = host
        self.port = port
    }

    deinit {
        gps_close(data)
        data.deallocate()
        free(host)
        free(port)
    }

    /// Asks for JSON reports. Corresponds to `gps_stream(WATCH_ENABLE | WATCH_JSON)`.
    func watch() throws(GPSClientError) {
        errno = 0
        guard cgps_watch_json(data) == 0 else { throw .watchFailed(server, Errno.current) }
    }

    /// What waiting for input ended with.
    enum Wait {
        case readable, timedOut, failed(Errno)
    }

    /// Waits until a line may be read. Corresponds to `gps_waiting`, whose timeout is in
    /// microseconds, which also returns true at EOF and with a partial line buffered, and which
    /// folds errors into false: errno tells them from a timeout.
    func waitForInput(timeout: Duration) -> Wait {
        let microseconds = max(0, min(Int64(Int32.max), Int64(timeout.seconds * 1e6)))
        errno = 0
        if gps_waiting(data, Int32(microseconds)) { return .readable }
        let error = errno
        return error == 0 || error == EINTR ? .timedOut : .failed(Errno(rawValue: error))
    }

    /// Sleeps until the socket has new bytes or `timeout` passes. After `gps_read` returned 0
    /// for a partial line, `gps_waiting` keeps answering true at once; polling the socket
    /// itself is what keeps a stalled half line from spinning the thread.
    func waitForMoreBytes(timeout: Duration) {
        var descriptor = pollfd(fd: data.pointee.gps_fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(timeout.seconds * 1000))
    }

    /// Reads and parses one line. Corresponds to `gps_read`.
    func read() -> Line {
        data.pointee.set = 0  // TPV replaces `set`, but SKY and others only add to it.
        errno = 0
        let length = gps_read(data, &lineStart, Int32(lineStart.count))
        if length < 0 { return .closed(errno == 0 ? nil : Errno.current) }
        if length == 0 { return .incomplete }
        let start = lineStart.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard start.hasPrefix("{\"class\":") || start.hasPrefix("{ \"class\":") else {
            return .garbage(String(start.prefix(40)))
        }
        return Self.interpret(data.pointee)
    }

    /// What a parsed line means, from the `set` bits libgps filled in.
    static func interpret(_ data: gps_data_t) -> Line {
        let set = data.set
        // Only a TPV sets STATUS_SET (and it replaces `set` rather than adding to it).
        if set & STATUS_SET != 0 {
            return .report(Self.fix(from: data), hasCourse: set & TRACK_SET != 0)
        }
        if set & POLICY_SET != 0 { return .watching }
        return .other
    }

    /// Parses one gpsd JSON line without a daemon, as `read` would. Corresponds to
    /// `gps_unpack`; for tests of the mapping against gpsd's expected output.
    static func interpret(jsonLine line: String) -> Line {
        var data = gps_data_t()
        data.set = 0
        _ = cgps_unpack(line, &data)
        return interpret(data)
    }
}
