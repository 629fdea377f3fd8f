internal import CSystemd

/// Tells systemd about the service's life: `READY=1` once devices are open and the socket is
/// bound, `STATUS=…` for `systemctl status`, `WATCHDOG=1` from the main loop, `STOPPING=1` on
/// the way out. Without `NOTIFY_SOCKET` (not started by systemd) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// A notifier for this process.
    public init() {}

    /// Whether systemd is listening. Corresponds to `sd_notify(0, "")` returning > 0.
    public var isEnabled: Bool { sd_notify(0, "") > 0 }

    /// Sends `READY=1` and a status line.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// Sends a status line.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// Pets the watchdog.
    public func watchdog() { send("WATCHDOG=1") }

    /// Announces the shutdown.
    public func stopping() { send("STOPPING=1") }

    /// The watchdog interval systemd expects, or nil when it is off. Corresponds to
    /// `sd_watchdog_enabled`.
    public var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds))
    }

    /// File descriptors passed by socket activation. Corresponds to `sd_listen_fds`; they start
    /// at 3 (`SD_LISTEN_FDS_START`).
    public func listenFileDescriptors() -> [Int32] {
        let count = sd_listen_fds(0)
        guard count > 0 else { return [] }
        return (0..<count).map { 3 + $0 }
    }

    /// Corresponds to `sd_notify`; a failure is not an error worth stopping for (systemd then
    /// treats the service by its timeouts), so the result is deliberately ignored.
    private func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
