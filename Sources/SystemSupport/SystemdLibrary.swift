// SystemSupport: errno, file descriptors, sockets, signals, sd_notify and logging (issue 6).
// Until then this file only proves that libsystemd links.
internal import CSystemd

/// Facts about the libsystemd this build links against.
public enum SystemdLibrary {
    /// Whether this process was started by systemd with a notification socket.
    ///
    /// Corresponds to `sd_notify(0, "")`, which returns a positive value only when
    /// `NOTIFY_SOCKET` names a socket.
    public static var hasNotificationSocket: Bool { sd_notify(0, "") > 0 }
}
