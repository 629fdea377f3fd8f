@preconcurrency import Glibc
import Haptics

extension HealthCheck {
    /// Where Raspberry Pi OS bookworm keeps config.txt, named in every fix that edits it.
    static let bootConfig = "/boot/firmware/config.txt"

    /// The motor's PWM channel: the chip and channel of the config exist and this user can
    /// write them. The channel is opened as the daemon opens it and switched straight off
    /// again; one that is already exported and enabled (a running daemon, a motor test) is only
    /// looked at, so a check never stops a motor someone else drives.
    func checkPWM(_ configuration: Configuration) -> HealthVerdict {
        let sysfs = devices.sysfs
        let item = "pwm"
        if let running = runningChannel(configuration) {
            let attributes = ["period", "duty_cycle", "enable"].map { running + "/" + $0 }
            if let blocked = attributes.first(where: { !sysfs.isWritable($0) }) {
                return HealthVerdict(
                    item: item, outcome: .failed, detail: "\(blocked) is not writable", fix: Self.gpioGroupFix)
            }
            return HealthVerdict(
                item: item, outcome: .ok,
                detail: "\(Self.describe(running, sysfs: sysfs)) in use (enabled), writable; left as it is")
        }
        do throws(PWMError) {
            let channel = try SysfsPWMChannel(
                fileSystem: sysfs, chip: configuration.pwmChip, channel: configuration.pwmChannel,
                periodNanoseconds: configuration.motorSettings.periodNanoseconds,
                permissionTimeout: devices.pwmPermissionTimeout, sleep: devices.pause)
            try channel.shutDown()
            return HealthVerdict(
                item: item, outcome: .ok,
                detail: "\(Self.describe(channel.channelDirectory, sysfs: sysfs)) writable, left off")
        } catch {
            return Self.verdict(for: error)
        }
    }

    /// The channel's directory if it is exported and enabled now.
    private func runningChannel(_ configuration: Configuration) -> String? {
        let sysfs = devices.sysfs
        let classDirectory = "/sys/class/pwm"
        let chips = sysfs.contents(of: classDirectory).filter { $0.hasPrefix("pwmchip") }
        let chip: String? =
            switch configuration.pwmChip {
            case .auto: chips.count == 1 ? chips[0] : nil
            case .numbered(let name): chips.contains(name) ? name : nil
            case .device(let name): chips.first { Self.deviceName(classDirectory + "/" + $0, sysfs: sysfs) == name }
            }
        guard let chip else { return nil }
        let directory = "\(classDirectory)/\(chip)/pwm\(configuration.pwmChannel)"
        guard sysfs.exists(directory), (try? sysfs.read(directory + "/enable")) == "1" else { return nil }
        return directory
    }

    /// `pwmchip0 (1f00098000.pwm) channel 2` for `/sys/class/pwm/pwmchip0/pwm2`.
    private static func describe(_ channelDirectory: String, sysfs: any SysfsFileSystem) -> String {
        let parts = channelDirectory.split(separator: "/")
        guard parts.count >= 2 else { return channelDirectory }
        let chip = String(parts[parts.count - 2])
        let channel = parts[parts.count - 1].dropFirst("pwm".count)
        let chipDirectory = "/" + parts.dropLast().joined(separator: "/")
        let device = deviceName(chipDirectory, sysfs: sysfs).map { " (\($0))" } ?? ""
        return "\(chip)\(device) channel \(channel)"
    }

    private static func deviceName(_ chipDirectory: String, sysfs: any SysfsFileSystem) -> String? {
        sysfs.linkTarget(chipDirectory + "/device")?.split(separator: "/").last.map(String.init)
    }

    static let gpioGroupFix =
        "add the user to the gpio group (Raspberry Pi OS's udev rule gives exported channels to it; "
        + "systemd-sysusers does it for the waypoint user), or run as root"

    /// The overlay lines for each model, for a Pi with no PWM chip at all.
    static let overlayFix =
        "add dtoverlay=pwm-2chan to \(bootConfig) and reboot (GPIO18/19: channels 0/1 on a Pi 3, 4 or Zero 2 W, "
        + "channels 2/3 of 1f00098000.pwm on a Pi 5)"

    private static func verdict(for error: PWMError) -> HealthVerdict {
        let item = "pwm"
        switch error {
        case .chipNotFound(let wanted, let present, let directory):
            if present.isEmpty {
                return HealthVerdict(item: item, outcome: .failed, detail: "no PWM chip in \(directory)", fix: overlayFix)
            }
            return HealthVerdict(
                item: item, outcome: .failed,
                detail: "no PWM chip '\(wanted)'; present: \(present.joined(separator: ", "))",
                fix: "set pwm-chip to one of them, by device name (the kernel renumbers pwmchipN)")
        case .channelOutOfRange(_, _, let count):
            return HealthVerdict(
                item: item, outcome: .failed, detail: error.description,
                fix: "set pwm-channel to 0…\(max(count - 1, 0)) (a Pi 5's GPIO18 is channel 2 of 1f00098000.pwm)")
        case .channelClaimed, .changedUnderneath, .heldElsewhere:
            return HealthVerdict(item: item, outcome: .failed, detail: error.description)
        case .permissionTimeout(let path):
            return HealthVerdict(
                item: item, outcome: .failed, detail: "\(path) did not become writable after export",
                fix: gpioGroupFix)
        case .failed(let action, let cause):
            let detail = "cannot \(action): \(cause.path): \(cause.errno.message)"
            let fix: String? =
                switch cause.errno.rawValue {
                case EACCES, EPERM: gpioGroupFix
                case EROFS:
                    "/sys is read-only here; under systemd's ProtectKernelTunables=yes the unit needs "
                        + "ReadWritePaths=-/sys/devices/platform"
                case ENOENT, ENODEV: overlayFix
                case EBUSY: "another driver or program holds the channel; pick another pwm-channel"
                default: nil
                }
            return HealthVerdict(item: item, outcome: .failed, detail: detail, fix: fix)
        }
    }
}
