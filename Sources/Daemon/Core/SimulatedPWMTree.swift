import SystemSupport

/// The few sysfs files of one PWM chip with channel 0 exported, as ordinary files: what
/// `waypointd --simulate` drives when no `--sysfs-root` is given (issue 30, item 9), so that
/// the simulation runs with no hardware and no tree made by hand. Made afresh at each start in
/// the state directory; the motor writes to it as it would to /sys.
public enum SimulatedPWMTree {
    /// Its directory in the state directory.
    static let directoryName = "simulated-sysfs"

    /// Why the tree could not be made: the path and the failing call's error.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let errno: Errno
        public var description: String { "cannot make the simulated PWM tree (\(path)): \(errno)" }
    }

    /// Makes (or resets) the tree under `root`, creating the directories it needs (mode 0700).
    public static func make(at root: String) throws(Failure) {
        let chip = root + "/sys/class/pwm/pwmchip0"
        let channel = chip + "/pwm0"
        var path = ""
        for component in channel.split(separator: "/") {
            path += "/" + component
            do throws(Errno) {
                try FileSystem.makeDirectory(path, permissions: 0o700)
            } catch where error == .fileExists {
                continue
            } catch {
                throw Failure(path: path, errno: error)
            }
        }
        for (name, value) in [("npwm", "1\n"), ("export", ""), ("unexport", "")] { try write(value, to: chip + "/" + name) }
        for (name, value) in [("period", "0\n"), ("duty_cycle", "0\n"), ("enable", "0\n"), ("polarity", "normal\n")] {
            try write(value, to: channel + "/" + name)
        }
        // Where the kernel's class entry points, which names the chip's device.
        let device = chip + "/device"
        do throws(Errno) {
            try? FileSystem.removeFile(device)
            try FileSystem.makeSymbolicLink(to: "../../../devices/platform/simulated.pwm", at: device)
        } catch {
            throw Failure(path: device, errno: error)
        }
    }

    private static func write(_ text: String, to path: String) throws(Failure) {
        do throws(Errno) {
            let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o600)
            defer { try? file.close() }
            try file.writeAll(Array(text.utf8))
        } catch {
            throw Failure(path: path, errno: error)
        }
    }
}
