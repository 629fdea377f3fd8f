import CommandLineSupport
import Daemon
@preconcurrency import Glibc

/// `waypointd check`: diagnoses the configuration, the state directory, the motor's PWM channel,
/// the I2C bus and IMU, and gpsd, one verdict line each (`HealthCheck`).
enum CheckCommand {
    static let help = """
        usage: waypointd check [--config PATH] [--state-dir DIR] [--sysfs-root DIR] [--dev-dir DIR]
                               [--gps-timeout SECONDS]

        Checks what the daemon needs and prints one line per item: ok, warn (works, but the
        daemon cannot guide yet), FAIL (with what to do about it) or -- (not checked because
        an item it depends on failed). The items: config (parsed as the daemon parses it),
        state (the state directory is writable), pwm (the motor's chip and channel exist and
        can be written; the motor is left off), i2c (the bus opens), imu (the chips answer),
        button (each configured input device is there, can be read and sends one of
        button-keys; below it every input device of the machine with its keys, the ones used
        marked), gpsd (reachable, and a fix within the timeout).

        Run it as the daemon's user to see what the service will be allowed to do:
        sudo -u waypoint waypointd check

        --config PATH          the config file (default /etc/waypointd/waypointd.conf)
        --state-dir DIR        the state directory to check instead of the configured one
        --sysfs-root DIR       directory standing for / for sysfs (default /), for tests
        --dev-dir DIR          directory holding the i2c-N nodes and input/ (default /dev), for tests
        --gps-timeout SECONDS  how long to wait for a fix (default 10)

        Exit status: 0 when nothing failed (warnings allowed), 1 when an item failed, 64 usage error.
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: ["--config", "--state-dir", "--sysfs-root", "--dev-dir", "--gps-timeout"], command: "check")
        if arguments.wantsHelp {
            print(help)
            return .success
        }
        try arguments.expectNoPositionals()
        let configPath = try arguments.nonEmptyValue("--config", what: "a path")
        let stateDirectory = try arguments.nonEmptyValue("--state-dir", what: "a directory")
        let sysfsRoot = try arguments.nonEmptyValue("--sysfs-root", what: "a directory") ?? "/"
        let deviceDirectory = try arguments.nonEmptyValue("--dev-dir", what: "a directory") ?? "/dev"
        var fixTimeout = HealthCheck.defaultFixTimeout
        if let text = arguments.value("--gps-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--gps-timeout needs a number of seconds (0 < s ≤ 600)", command: "check")
            }
            fixTimeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        let check = HealthCheck(
            configPath: configPath, stateDirectory: stateDirectory, fixTimeout: fixTimeout,
            devices: HealthCheck.Devices(sysfsRoot: sysfsRoot, i2cDeviceDirectory: deviceDirectory))
        let verdicts = await check.run { verdict in
            print(verdict)
            // Each line as it is known: gpsd comes last and may take the whole timeout.
            fflush(stdout)
        }
        return HealthCheck.exitStatus(verdicts)
    }
}
