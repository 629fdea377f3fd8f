import CommandLineSupport
import GPSClient
import Haptics
import IMU
import SystemSupport

/// `waypointd check`: looks at everything the daemon needs on a Raspberry Pi (its configuration,
/// the state directory, the motor's PWM channel, the I2C bus and the IMU on it, the button's
/// input devices, gpsd and a fix)
/// and gives one `HealthVerdict` per item, with the fix for each failure.
///
/// The check changes nothing that matters: the PWM channel is opened the way the daemon opens
/// it and switched off again (duty 0, disabled, unexported if the check exported it), a channel
/// already running is only looked at, and a missing state directory is not created.
///
/// Every device is reached through `Devices`, so tests run the real logic on a simulated I2C
/// bus, a temporary sysfs tree and a gpsd on a pseudo-terminal.
public struct HealthCheck {
    /// Where the check reaches the hardware and gpsd.
    public struct Devices {
        /// sysfs, for the PWM channel (`LinuxSysfs(root:)`).
        public var sysfs: any SysfsFileSystem
        /// The directory holding the `i2c-N` nodes: `/dev`, or a temporary one in tests.
        public var i2cDeviceDirectory: String
        /// The bus numbered N.
        public var i2cBus: (_ number: Int) -> any I2CBus
        /// A source of fixes from gpsd at an address.
        public var fixSource: (_ server: GPSServerAddress) -> any GPSFixSource
        /// The directory holding the input devices (`event*`): `/dev/input`, or a test's.
        public var inputDirectory: String
        /// How long to wait for udev to grant write access to a freshly exported PWM channel.
        public var pwmPermissionTimeout: Duration
        /// Blocks for a while (PWM permission polling, the ICM-20948's reset); tests return at once.
        public var pause: @Sendable (Duration) -> Void

        /// The real devices: sysfs below `sysfsRoot`, `/dev/i2c-N` through i2c-dev, gpsd through
        /// libgps.
        /// - Parameters:
        ///   - sysfsRoot: the directory standing for `/` for sysfs paths.
        ///   - i2cDeviceDirectory: where the `i2c-N` nodes are.
        public init(sysfsRoot: String = "/", i2cDeviceDirectory: String = "/dev") {
            sysfs = LinuxSysfs(root: sysfsRoot)
            self.i2cDeviceDirectory = i2cDeviceDirectory
            inputDirectory = i2cDeviceDirectory + "/input"
            i2cBus = { number in LinuxI2CBus(number: number, deviceDirectory: i2cDeviceDirectory) }
            fixSource = { server in LibGPSSource(server: server) }
            pwmPermissionTimeout = .seconds(3)
            pause = { ThreadSleep.sleep(for: $0) }
        }
    }

    /// The config file; nil for `/etc/waypointd/waypointd.conf`, where a missing file means the
    /// defaults (as for the daemon).
    public var configPath: String?
    /// The state directory to check instead of the configured one (`--state-dir`).
    public var stateDirectory: String?
    /// How long to wait for gpsd to report a fix.
    public var fixTimeout: Duration
    /// The hardware and gpsd.
    public var devices: Devices

    /// Where the daemon reads its configuration unless told otherwise.
    public static let defaultConfigPath = "/etc/waypointd/waypointd.conf"
    /// A receiver with a fix reports one a second; a few seconds also covers gpsd opening it.
    public static let defaultFixTimeout = Duration.seconds(10)

    /// A check of the given configuration and devices.
    /// - Parameters:
    ///   - configPath: the config file, nil for the default one.
    ///   - stateDirectory: the state directory to check instead of the configured one.
    ///   - fixTimeout: how long to wait for a fix from gpsd.
    ///   - devices: the hardware and gpsd.
    public init(
        configPath: String? = nil, stateDirectory: String? = nil, fixTimeout: Duration = defaultFixTimeout,
        devices: Devices = Devices()
    ) {
        self.configPath = configPath
        self.stateDirectory = stateDirectory
        self.fixTimeout = fixTimeout
        self.devices = devices
    }

    /// Checks every item in turn, the quick ones first and gpsd (which may wait for a fix) last.
    /// With a bad config file the other items are checked against the compiled-in defaults.
    /// - Parameter report: called with each verdict as soon as it is known.
    /// - Returns: all verdicts, in order.
    @discardableResult
    public func run(report: (HealthVerdict) -> Void = { _ in }) async -> [HealthVerdict] {
        var verdicts: [HealthVerdict] = []
        func add(_ verdict: HealthVerdict) {
            verdicts.append(verdict)
            report(verdict)
        }
        let (configuration, configVerdict) = checkConfiguration()
        add(configVerdict)
        add(checkStateDirectory(stateDirectory ?? configuration.stateDirectory))
        add(checkPWM(configuration))
        for verdict in checkI2C(configuration) { add(verdict) }
        add(checkButton(configuration))
        add(await checkGPS(configuration.gpsdAddress))
        return verdicts
    }

    /// Success when nothing failed (warnings allowed), failure otherwise.
    public static func exitStatus(_ verdicts: [HealthVerdict]) -> ExitStatus {
        verdicts.contains { $0.outcome == .failed } ? .failure : .success
    }
}
