@preconcurrency import Glibc

/// Tells systemd about the service's life: `READY=1` once devices are open and the socket is
/// bound, `STATUS=…` for `systemctl status`, `WATCHDOG=1` from the main loop, `STOPPING=1` on
/// the way out. Without `NOTIFY_SOCKET` (not started by systemd) every call does nothing.
///
/// The notify, watchdog and socket-activation protocols are systemd's stable interface
/// (sd_notify(3), sd_watchdog_enabled(3), sd_listen_fds(3)): a datagram to the socket named by
/// `NOTIFY_SOCKET`, and a few environment variables. Speaking them here takes libsystemd off our
/// own link line and libsystemd-dev off the build's packages; libgps (through libdbus) still
/// loads libsystemd into the daemon, so the memory it costs goes only when libgps does.
public struct SystemdNotifier: Sendable {
    /// The environment read; nil for the process's own.
    private let environment: [String: String]?
    /// `NOTIFY_SOCKET`, read once: petting the watchdog then allocates nothing.
    private let notifySocket: String?

    /// A notifier for this process, reading the process's environment.
    public init() {
        environment = nil
        notifySocket = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
    }

    /// A notifier that reads `environment` instead of the process's (for tests: changing the
    /// environment of a process running tests on several threads is not safe).
    public init(environment: [String: String]) {
        self.environment = environment
        notifySocket = environment["NOTIFY_SOCKET"]
    }

    /// Sends `READY=1` and a status line.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// Sends a status line.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// Pets the watchdog.
    public func watchdog() { send("WATCHDOG=1") }

    /// Announces the shutdown.
    public func stopping() { send("STOPPING=1") }

    /// The watchdog interval systemd expects, or nil when it is off: `WATCHDOG_USEC`, when
    /// `WATCHDOG_PID` is unset or this process's.
    public var watchdogInterval: Duration? {
        guard isForThisProcess("WATCHDOG_PID", required: false),
            let text = value("WATCHDOG_USEC"), let microseconds = Int64(text), microseconds > 0
        else { return nil }
        return .microseconds(microseconds)
    }

    /// File descriptors passed by socket activation: `LISTEN_FDS` of them from 3
    /// (`SD_LISTEN_FDS_START`), when `LISTEN_PID` is this process's. Like `sd_listen_fds`, it
    /// marks them close-on-exec.
    public func listenFileDescriptors() -> [Int32] {
        guard isForThisProcess("LISTEN_PID", required: true), let text = value("LISTEN_FDS"),
            let count = Int32(text), count > 0, count <= Self.maximumListenDescriptors
        else { return [] }
        let descriptors = (0..<count).map { Self.firstListenDescriptor + $0 }
        for descriptor in descriptors {
            // A descriptor that cannot be marked was not passed to us after all; the caller
            // finds that out when it checks the socket.
            _ = SocketCall.setFlags(descriptor, closeOnExec: true, nonBlocking: false)
        }
        return descriptors
    }

    /// `SD_LISTEN_FDS_START`.
    static let firstListenDescriptor: Int32 = 3
    /// More than this many is a garbled `LISTEN_FDS`, not a socket unit.
    static let maximumListenDescriptors: Int32 = 1024

    /// Whether a `…_PID` variable names this process; an absent one counts when not `required`.
    private func isForThisProcess(_ name: String, required: Bool) -> Bool {
        guard let text = value(name) else { return !required }
        return Int32(text) == getpid()
    }

    private func value(_ name: String) -> String? {
        if let environment { return environment[name] }
        return getenv(name).map { String(cString: $0) }
    }

    /// One datagram to `NOTIFY_SOCKET`. A failure is not worth stopping for (systemd then
    /// treats the service by its timeouts), so it is deliberately ignored, as `sd_notify`'s
    /// callers do.
    private func send(_ state: String) {
        guard let path = notifySocket, !path.isEmpty, case .success(let socket) = SocketCall.makeDatagramSocket()
        else { return }
        defer { try? FileDescriptor(rawValue: socket).close() }
        var state = state
        state.withUTF8 { _ = SocketCall.sendDatagram(socket, UnsafeRawBufferPointer($0), to: path) }
    }
}
