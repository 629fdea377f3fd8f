@preconcurrency import Glibc
import IMU
import SystemSupport

extension HealthCheck {
    /// Errors of opening the bus or binding an address that hold for every address on it.
    static let busWideErrnos: Set<Int32> = [ENOENT, EACCES, EPERM, ENOTTY, ENODEV]

    /// Two verdicts: `i2c` (the bus opens) and `imu` (the chips the config asks for answer: the
    /// scan's pick for `imu auto`, the preset's or the named pair otherwise). The scan is the
    /// daemon's own `IMUDetector`, so what passes here is what the daemon will read.
    func checkI2C(_ configuration: Configuration) -> [HealthVerdict] {
        let number = configuration.i2cBus
        let path = "\(devices.i2cDeviceDirectory)/i2c-\(number)"
        let result = IMUDetector(bus: devices.i2cBus(number), pause: devices.pause).detect()

        for probe in result.probes {
            guard case .failed(let error) = probe.verdict, error.register == nil,
                Self.busWideErrnos.contains(error.errno.rawValue)
            else { continue }
            let (detail, fix) = Self.busFailure(path: path, number: number, errno: error.errno.rawValue)
            return [
                HealthVerdict(item: "i2c", outcome: .failed, detail: detail, fix: fix),
                HealthVerdict(item: "imu", outcome: .skipped, detail: "not checked: \(path) cannot be used"),
            ]
        }
        let answering = result.probes.filter { probe in
            if case .absent = probe.verdict { return false }
            return true
        }
        let addresses = answering.map { Self.hex($0.address) }
        let busVerdict = HealthVerdict(
            item: "i2c", outcome: .ok,
            detail: addresses.isEmpty
                ? "\(path) open; no device answers" : "\(path) open; answering: \(addresses.joined(separator: " "))")
        return [busVerdict, imuVerdict(configuration, result: result, path: path)]
    }

    private func imuVerdict(_ configuration: Configuration, result: IMUDetector.Result, path: String) -> HealthVerdict {
        let scan = result.probes.map(\.description)
        let wiringFix =
            "check the wiring (SDA GPIO2 pin 3, SCL GPIO3 pin 5, 3.3 V, GND); `i2cdetect -y \(configuration.i2cBus)` "
            + "lists what answers"
        guard let selection = configuration.imuSelection(detected: result.selection) else {
            return HealthVerdict(
                item: "imu", outcome: .failed,
                detail: "no supported magnetometer and accelerometer on \(path): \(result.problem ?? "no usable pair")",
                fix: wiringFix, notes: scan)
        }
        // A preset or a named pair is taken on trust by imuSelection; here it must answer too.
        let found = result.magnetometers + result.accelerometers
        let missing = [selection.magnetometer, selection.accelerometer].filter { wanted in
            !found.contains { $0.chip == wanted.chip && $0.address == wanted.address }
        }
        if !missing.isEmpty {
            let names = missing.map { "\($0.chip.name) at \(Self.hex($0.address))" }.joined(separator: " and ")
            return HealthVerdict(
                item: "imu", outcome: .failed, detail: "\(names) not found on \(path)",
                fix: wiringFix + "; or set imu auto", notes: scan)
        }
        let board = selection.boardName.map { " (\($0))" } ?? ""
        return HealthVerdict(
            item: "imu", outcome: .ok,
            detail: "\(selection.magnetometer.chip.name) at \(Self.hex(selection.magnetometer.address)) + "
                + "\(selection.accelerometer.chip.name) at \(Self.hex(selection.accelerometer.address))\(board)")
    }

    /// `0x1C`, as the scan's report and i2cdetect write addresses.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// What a bus-wide error means on a Pi, and the line that fixes it.
    private static func busFailure(path: String, number: Int, errno: Int32) -> (String, String) {
        switch errno {
        case ENOENT:
            return (
                "\(path) does not exist",
                "add dtparam=i2c_arm=on to \(bootConfig) and reboot (or `raspi-config nonint do_i2c 0`); "
                    + "the i2c-dev module must be loaded (the unit starts modprobe@i2c_dev.service)"
            )
        case EACCES:
            return (
                "\(path): permission denied",
                "add the user to the i2c group (systemd-sysusers does it for the waypoint user), or run as root"
            )
        case EPERM:
            return (
                "\(path): operation not permitted (device cgroup)",
                "the unit needs DeviceAllow=char-i2c rw with Wants=/After=modprobe@i2c_dev.service, "
                    + "so that i2c-dev is loaded when the service starts"
            )
        default:
            return (
                "\(path) is not an I2C adapter (\(Errno(rawValue: errno)))",
                "set i2c-bus to the header bus (1 on a Raspberry Pi)"
            )
        }
    }
}
