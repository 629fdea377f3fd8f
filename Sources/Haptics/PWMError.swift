@preconcurrency import Glibc

/// Why the motor's PWM channel could not be opened or driven, with what to do about it.
public enum PWMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No chip matches; carries the chips present as `pwmchipN (device)`, and the directory
    /// searched as it is on disk (`/sys/class/pwm` on a Pi).
    case chipNotFound(wanted: String, present: [String], directory: String)
    /// The chip has fewer channels.
    case channelOutOfRange(chip: String, channel: Int, count: Int)
    /// A kernel driver holds the channel (EBUSY on export, yet no `pwmN/` appeared).
    case channelClaimed(chip: String, channel: Int)
    /// udev did not make the channel's files writable in time.
    case permissionTimeout(path: String)
    /// A sysfs read or write failed while doing `action`.
    case failed(action: String, SysfsError)
    /// Another process drives the motor (it holds the chip's lock, ``PWMChannelLock``): its
    /// PID and name, when known.
    case heldElsewhere(holder: String?)
    /// An attribute read back holds something other than what was written: another program
    /// drives the channel, or it was reset.
    case changedUnderneath(path: String, written: String, found: String)

    public var description: String {
        switch self {
        case .chipNotFound(let wanted, let present, let directory):
            // The overlay advice is for a Pi's own /sys, not a tree given with --sysfs-root.
            let none = directory == SysfsPWMChannel.classDirectory
                ? "none (enable one: dtoverlay=pwm or dtoverlay=pwm-2chan in config.txt)" : "none"
            let list = present.isEmpty ? none : present.joined(separator: ", ")
            return "no PWM chip '\(wanted)' in \(directory); chips present: \(list)"
        case .channelOutOfRange(let chip, let channel, let count):
            return "\(chip) has \(count) channel\(count == 1 ? "" : "s") (0…\(count - 1)); channel \(channel) does not exist"
        case .channelClaimed(let chip, let channel):
            return "\(chip) channel \(channel) is claimed by a kernel driver (EBUSY on export); "
                + "on a Pi 5, 1f0009c000.pwm channel 3 drives the fan: use 1f00098000.pwm"
        case .permissionTimeout(let path):
            return "\(path) did not become writable in time: is the user in the 'gpio' group, "
                + "and does a udev rule grant the group write access to exported PWM channels?"
        case .failed(let action, let error):
            return "cannot \(action) (\(error.path)): \(Self.explain(error.errno.rawValue, asRoot: geteuid() == 0))"
        case .heldElsewhere(let holder):
            let who = holder.map { "process \($0)" } ?? "another process"
            return "the motor is driven by \(who); stop it first (systemctl stop waypointd), "
                + "or play a pattern through the daemon: waypointctl buzz test"
        case .changedUnderneath(let path, let written, let found):
            return "\(path) reads '\(found)', not the '\(written)' written: another program is driving "
                + "the motor (waypointd motor-off or motor-test?) or the channel was reset"
        }
    }

    /// The kernel's errno in words, with the usual cause on a Pi; `asRoot` when the process
    /// runs as root, whom no group would help.
    static func explain(_ errno: Int32, asRoot: Bool) -> String {
        let text = String(cString: strerror(errno))
        switch errno {
        case EINVAL:
            return "\(text): the kernel refused the value (duty above the period, a write before the "
                + "period is set, or a period the hardware cannot make)"
        case EBUSY: return "\(text): another driver or process is using the channel"
        case EACCES where asRoot, EPERM where asRoot:
            return "\(text), even as root: the kernel or a sandbox refuses it (a read-only /sys, systemd's "
                + "ProtectKernelTunables= or DevicePolicy=, a container), not a file's permissions"
        case EACCES, EPERM:
            return "\(text): add the user to the 'gpio' group (Raspberry Pi OS's udev rule grants it) or run as root"
        case EROFS:
            // ReadWritePaths= on /sys/class/pwm does not help: its entries are symlinks into
            // /sys/devices/platform, which is what must be writable.
            return "\(text): /sys is read-only here; under systemd's ProtectKernelTunables= add "
                + "ReadWritePaths=/sys/devices/platform/ to the unit"
        case ENOENT, ENODEV: return "\(text): no such chip or channel (is the PWM overlay loaded?)"
        default: return "\(text) (errno \(errno))"
        }
    }
}
