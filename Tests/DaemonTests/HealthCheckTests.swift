import Foundation
import CommandLineSupport
import GPSClient
import Geodesy
import Haptics
import Heading
import IMU
import Simulation
import TestSupport
import Testing

@testable import Daemon

/// `HealthCheck`, the logic behind `waypointd check`: each item on real code over a simulated
/// I2C bus, a sysfs tree that keeps the kernel's rules, and a real gpsd where one is needed.
@Suite("waypointd check: HealthCheck", .timeLimit(.minutes(5)))
struct HealthCheckTests {
    /// A log with a 3D fix from its first sentence.
    static let fixedLog = TestData.url("Tests/GPSClientTests/Data/mt3339.log")

    /// A fix source that reports what it is given and then stays quiet.
    struct ScriptedSource: GPSFixSource {
        let script: [GPSEvent]
        func run(until stop: GPSStop, deliver: (GPSEvent) -> Void) {
            for event in script { deliver(event) }
            // Then quiet: a silent gpsd keeps the connection open.
            while !stop.isStopped { stop.sleep(for: .milliseconds(100)) }
        }
    }

    static let address = GPSServerAddress.local
    static var threeDFix: Fix {
        var fix = Fix(
            mode: .threeDimensional, coordinate: Coordinate(uncheckedLatitudeDegrees: 48.85, longitudeDegrees: 2.29))
        fix.horizontalErrorMeters = 4.2
        return fix
    }

    /// Everything a check needs, all of it working unless a test breaks one part.
    final class Rig {
        let directory: URL
        let tree: PWMSysfsTree
        var bus: any I2CBus
        var source: any GPSFixSource = ScriptedSource(script: [
            .connected(HealthCheckTests.address), .fix(HealthCheckTests.threeDFix),
        ])
        var configText = ""
        var fixTimeout = Duration.seconds(2)
        var i2cDeviceDirectory = "/dev"

        init(tree: PWMSysfsTree? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)
            self.tree = try tree ?? PWMSysfsTree(udevDelayChecks: 2)
            let physics = SensorPhysics(earthFieldMicrotesla: Vector3(20, 0, 40), seed: 1)
            bus = SimulatedBoard(physics: physics).bus
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        var configPath: String { directory.appendingPathComponent("waypointd.conf").path }

        func run() async throws -> [HealthVerdict] {
            try configText.write(toFile: configPath, atomically: true, encoding: .utf8)
            var devices = HealthCheck.Devices(i2cDeviceDirectory: i2cDeviceDirectory)
            devices.sysfs = tree
            let bus = self.bus
            devices.i2cBus = { _ in bus }
            let source = self.source
            devices.fixSource = { _ in source }
            devices.pwmPermissionTimeout = .milliseconds(200)
            devices.pause = { _ in }
            // Its own input devices (none unless a test makes some), not this machine's.
            devices.inputDirectory = directory.appendingPathComponent("input").path
            let check = HealthCheck(
                configPath: configPath, stateDirectory: directory.appendingPathComponent("state").path,
                fixTimeout: fixTimeout, devices: devices)
            return await check.run()
        }
    }

    static func verdict(_ item: String, in verdicts: [HealthVerdict]) throws -> HealthVerdict {
        try #require(verdicts.first { $0.item == item }, "no \(item) verdict in \(verdicts)")
    }

    @Test("everything in place: six ok lines, exit 0, and the motor left off and unexported")
    func allGood() async throws {
        let rig = try Rig()
        let verdicts = try await rig.run()
        #expect(verdicts.map(\.item) == ["config", "state", "pwm", "i2c", "imu", "button", "gpsd"])
        #expect(verdicts.allSatisfy { $0.outcome == .ok }, "\(verdicts.map(\.description))")
        #expect(HealthCheck.exitStatus(verdicts) == .success)
        #expect(try Self.verdict("gpsd", in: verdicts).description == "ok    gpsd      127.0.0.1:2947, 3D fix (±4 m)")
        #expect(
            try Self.verdict("pwm", in: verdicts).detail == "pwmchip0 (1f00098000.pwm) channel 0 writable, left off")
        #expect(
            try Self.verdict("imu", in: verdicts).detail
                == "LIS3MDL at 0x1C + LSM6DSL at 0x6A (BerryGPS-IMU v4)")
        #expect(try Self.verdict("i2c", in: verdicts).detail == "/dev/i2c-1 open; answering: 0x6A 0x1C")
        // Opened as the daemon does, then off and given back: duty 0 before disable, unexported.
        let channelWrites = rig.tree.writes.map(\.description).filter { !$0.contains("errno") }
        #expect(
            channelWrites.suffix(3) == [
                "/sys/class/pwm/pwmchip0/pwm0/duty_cycle <- 0", "/sys/class/pwm/pwmchip0/pwm0/enable <- 0",
                "/sys/class/pwm/pwmchip0/unexport <- 0",
            ])
        #expect(rig.tree.value("pwmchip0/pwm0/enable") == nil)
    }

    @Test("a channel someone is driving is looked at, not touched")
    func runningChannelUntouched() async throws {
        let rig = try Rig()
        try rig.tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 40_000, dutyNanoseconds: 30_000)
        let verdicts = try await rig.run()
        let pwm = try Self.verdict("pwm", in: verdicts)
        #expect(pwm.outcome == .ok && pwm.detail.contains("in use"), "\(pwm)")
        #expect(rig.tree.writes.isEmpty)
        #expect(rig.tree.value("pwmchip0/pwm0/duty_cycle") == "30000")
    }

    @Test("a bad config: its file:line message, every other problem below, exit 1")
    func badConfig() async throws {
        let rig = try Rig()
        rig.configText = "# a comment\npwm-chanel 2\nzone-degrees 500\n"
        let verdicts = try await rig.run()
        let config = try Self.verdict("config", in: verdicts)
        #expect(config.outcome == .failed)
        #expect(config.detail == "\(rig.configPath):2: unknown key 'pwm-chanel'; did you mean 'pwm-channel'?")
        #expect(config.notes.first == "\(rig.configPath):3: zone-degrees: 500 is out of range (allowed: 1 to 179)")
        #expect(config.description.hasPrefix("FAIL  config    \(rig.configPath):2: unknown key"))
        #expect(HealthCheck.exitStatus(verdicts) == .failure)
        // The rest is still checked, against the defaults.
        #expect(verdicts.count == 7)
    }

    @Test("button: the configured devices found or not, and every input device listed, the used ones marked")
    func button() async throws {
        let rig = try Rig()
        let input = rig.directory.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // FIFOs stand for event devices: they open as one does, and have no name or keys to tell.
        for name in ["event0", "event1", "event10"] { #expect(mkfifo(input.appendingPathComponent(name).path, 0o600) == 0) }
        let none = try Self.verdict("button", in: try await rig.run())
        #expect(none.outcome == .ok)
        #expect(none.detail == "none configured (button none); input devices here:")
        #expect(none.notes == ["event0", "event1", "event10"].map { "\(input.path)/\($0): no keys" }, "in number order")

        rig.configText = "button \(input.path)/event1, name:Headset\n"
        let verdict = try Self.verdict("button", in: try await rig.run())
        #expect(verdict.outcome == .warning, "a headset may be off now: not a failure")
        #expect(verdict.detail == "name:Headset is not there now")
        #expect(verdict.fix == "plug it in or pair it; the daemon looks for it every 2 s")
        #expect(verdict.notes[1] == "\(input.path)/event1: no keys (used)")

        rig.configText = "button \(input.path)/event1\n"
        let found = try Self.verdict("button", in: try await rig.run())
        #expect(found.outcome == .ok)
        #expect(found.detail == "\(input.path)/event1 readable (its keys unknown)", "a FIFO says no keys: none are claimed")
    }

    @Test("a config path given but absent fails, naming it")
    func missingConfig() async throws {
        var devices = HealthCheck.Devices()
        devices.fixSource = { _ in ScriptedSource(script: []) }
        let check = HealthCheck(
            configPath: "/nonexistent/waypointd.conf", fixTimeout: .milliseconds(10), devices: devices)
        let (_, verdict) = check.checkConfiguration()
        #expect(verdict.outcome == .failed)
        #expect(verdict.detail == "/nonexistent/waypointd.conf: cannot read the configuration: no such file")
    }

    @Test("no gpsd listening: FAIL naming the address, with how to start it")
    func noGPSD() async throws {
        let rig = try Rig()
        let port = try GPSDHarness.freePort()
        rig.configText = "gpsd 127.0.0.1:\(port)\n"
        rig.source = LibGPSSource(server: try GPSServerAddress(parsing: "127.0.0.1:\(port)"))
        let verdicts = try await rig.run()
        let gpsd = try Self.verdict("gpsd", in: verdicts)
        #expect(gpsd.outcome == .failed)
        #expect(gpsd.description.hasPrefix("FAIL  gpsd      cannot connect to gpsd at 127.0.0.1:\(port)"), "\(gpsd)")
        #expect(gpsd.fix?.contains("systemctl enable --now gpsd.socket") == true)
        #expect(HealthCheck.exitStatus(verdicts) == .failure)
    }

    @Test("gpsd answers without a fix: a warning, exit 0")
    func noFix() async throws {
        let rig = try Rig()
        rig.source = ScriptedSource(script: [.connected(Self.address), .fix(Fix(mode: .noFix))])
        rig.fixTimeout = .milliseconds(300)
        let verdicts = try await rig.run()
        let gpsd = try Self.verdict("gpsd", in: verdicts)
        #expect(gpsd.outcome == .warning)
        #expect(gpsd.detail == "127.0.0.1:2947 answers, but no fix within 0.3 s")
        #expect(HealthCheck.exitStatus(verdicts) == .success)
    }

    @Test("no I2C bus: FAIL with the dtparam line; the IMU is not checked")
    func noBus() async throws {
        let rig = try Rig()
        rig.i2cDeviceDirectory = rig.directory.path
        rig.bus = LinuxI2CBus(number: 1, deviceDirectory: rig.directory.path)
        let verdicts = try await rig.run()
        let i2c = try Self.verdict("i2c", in: verdicts)
        #expect(
            i2c.description.hasPrefix(
                "FAIL  i2c       \(rig.directory.path)/i2c-1 does not exist — add dtparam=i2c_arm=on to /boot/firmware/config.txt and reboot"
            ),
            "\(i2c)")
        #expect(try Self.verdict("imu", in: verdicts).outcome == .skipped)
        #expect(HealthCheck.exitStatus(verdicts) == .failure)
    }

    @Test("no chip on the bus: FAIL with the wiring, and the scan below it")
    func noChip() async throws {
        let rig = try Rig()
        rig.bus = SimulatedI2CBus(number: 1)
        let verdicts = try await rig.run()
        #expect(try Self.verdict("i2c", in: verdicts).detail == "/dev/i2c-1 open; no device answers")
        let imu = try Self.verdict("imu", in: verdicts)
        #expect(imu.outcome == .failed)
        #expect(
            imu.description.hasPrefix("FAIL  imu       no supported magnetometer and accelerometer on /dev/i2c-1"),
            "\(imu)")
        #expect(imu.fix?.contains("i2cdetect -y 1") == true)
        #expect(imu.notes.contains { $0.hasPrefix("0x1C: nothing there") }, "\(imu.notes)")
        #expect(HealthCheck.exitStatus(verdicts) == .failure)
    }

    @Test("a preset whose chips do not answer fails, naming them")
    func presetMissing() async throws {
        let rig = try Rig()
        rig.configText = "imu sense-hat\n"
        let verdicts = try await rig.run()
        let imu = try Self.verdict("imu", in: verdicts)
        #expect(imu.outcome == .failed)
        #expect(imu.detail.contains("not found on /dev/i2c-1"), "\(imu)")
    }

    @Test("no PWM chip: FAIL with the overlay line for each model")
    func noPWMChip() async throws {
        let rig = try Rig(tree: PWMSysfsTree(devices: []))
        let verdicts = try await rig.run()
        let pwm = try Self.verdict("pwm", in: verdicts)
        #expect(
            pwm.description.hasPrefix(
                "FAIL  pwm       no PWM chip in /sys/class/pwm — add dtoverlay=pwm-2chan to /boot/firmware/config.txt and reboot"
            ),
            "\(pwm)")
        #expect(pwm.fix?.contains("1f00098000.pwm") == true)
        #expect(HealthCheck.exitStatus(verdicts) == .failure)
    }

    @Test("the configured chip is absent: FAIL listing the chips present")
    func wrongPWMChip() async throws {
        let rig = try Rig()
        rig.configText = "pwm-chip fe20c000.pwm\n"
        let verdicts = try await rig.run()
        let pwm = try Self.verdict("pwm", in: verdicts)
        #expect(pwm.detail == "no PWM chip 'fe20c000.pwm'; present: pwmchip0 (1f00098000.pwm)")
    }

    @Test("PWM files udev never opens up: FAIL naming the gpio group")
    func pwmNotWritableByGroup() async throws {
        let rig = try Rig(tree: PWMSysfsTree(udevDelayChecks: 1_000_000))
        let verdicts = try await rig.run()
        let pwm = try Self.verdict("pwm", in: verdicts)
        #expect(pwm.outcome == .failed)
        #expect(pwm.detail == "/sys/class/pwm/pwmchip0/pwm0/period did not become writable after export", "\(pwm)")
        #expect(pwm.fix?.hasPrefix("add the user to the gpio group") == true)
    }

    @Test("read-only sysfs (ProtectKernelTunables=): FAIL naming the unit directive")
    func pwmReadOnly() async throws {
        let rig = try Rig()
        rig.tree.makeReadOnly()
        let verdicts = try await rig.run()
        let pwm = try Self.verdict("pwm", in: verdicts)
        #expect(pwm.outcome == .failed)
        #expect(
            pwm.detail.hasPrefix("cannot export channel 0: /sys/class/pwm/pwmchip0/export: Read-only file system"),
            "\(pwm)")
        #expect(pwm.fix?.contains("ReadWritePaths=-/sys/devices/platform") == true)
    }

    @Test("a state directory that is a file fails; a missing one is fine and is not created")
    func stateNotADirectory() async throws {
        let rig = try Rig()
        let file = rig.directory.appendingPathComponent("plain-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        var devices = HealthCheck.Devices()
        devices.fixSource = { _ in ScriptedSource(script: []) }
        let check = HealthCheck(stateDirectory: file.path, devices: devices)
        let verdict = check.checkStateDirectory(file.path)
        #expect(verdict.outcome == .failed)
        #expect(verdict.detail == "the state directory \(file.path) is not a directory")
        let missing = check.checkStateDirectory(rig.directory.appendingPathComponent("absent").path)
        #expect(missing.outcome == .ok)
        #expect(!FileManager.default.fileExists(atPath: rig.directory.appendingPathComponent("absent").path))
        // Below a file, nothing can exist or be made: that is a failure, not "does not exist yet".
        let underFile = check.checkStateDirectory(file.path + "/state")
        #expect(underFile.outcome == .failed)
        #expect(underFile.detail == "cannot examine the state directory \(file.path)/state: Not a directory (errno 20)")
    }

    @Test("all good against a real gpsd fed a recorded log")
    func realGPSD() async throws {
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let stopped = StopFlag()
        defer { stopped.stop() }
        Thread.detachNewThread {
            while !stopped.isSet {
                do { try gpsd.feed(Self.fixedLog) { stopped.isSet } } catch { return }
            }
        }
        let rig = try Rig()
        rig.configText = "gpsd \(gpsd.address)\n"
        rig.source = LibGPSSource(server: try GPSServerAddress(parsing: gpsd.address))
        rig.fixTimeout = .seconds(15)
        let verdicts = try await rig.run()
        let verdict = try Self.verdict("gpsd", in: verdicts)
        #expect(verdict.outcome == .ok, "\(verdict)")
        // The first epoch gpsd reports may be 2D, before it has seen the receiver's GSA.
        #expect(
            verdict.detail.hasPrefix("\(gpsd.address), 3D fix") || verdict.detail.hasPrefix("\(gpsd.address), 2D fix"),
            "\(verdict)")
        #expect(HealthCheck.exitStatus(verdicts) == .success, "\(verdicts.map(\.description))")
    }
}
