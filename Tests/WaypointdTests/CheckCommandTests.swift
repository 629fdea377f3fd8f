import Foundation
import TestSupport
import Testing

/// `waypointd check` as a process: its verdict lines, exit status and help. Every item's logic
/// is tested in DaemonTests/HealthCheckTests; here the command line, the real devices' code on
/// temporary trees, and a real gpsd.
@Suite("waypointd check", .timeLimit(.minutes(10)))
struct CheckCommandTests {
    static let fixedLog = TestData.url("Tests/GPSClientTests/Data/mt3339.log")

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a bad config: its file:line verdict and exit 1")
    func badConfig() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waypointd.conf").path
        let port = try GPSDHarness.freePort()
        try "gpsd 127.0.0.1:\(port)\npwm-chanel 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let output = try ExternalTool.run(
            waypointd,
            [
                "check", "--config", config, "--state-dir", directory.path, "--sysfs-root", directory.path,
                "--dev-dir", directory.path, "--gps-timeout", "1",
            ])
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "FAIL  config    \(config):2: unknown key 'pwm-chanel'; did you mean 'pwm-channel'? — correct the file; config/waypointd.conf documents every key"
        )
        #expect(lines.contains("                the checks below use the compiled-in defaults"))
    }

    @Test("no PWM chip, no I2C bus, no gpsd: a FAIL line each with its fix, exit 1; the state directory is ok")
    func everythingMissing() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waypointd.conf").path
        let port = try GPSDHarness.freePort()
        try "gpsd 127.0.0.1:\(port)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let output = try ExternalTool.run(
            waypointd,
            [
                "check", "--config", config, "--state-dir", directory.path, "--sysfs-root", directory.path,
                "--dev-dir", directory.path, "--gps-timeout", "2",
            ])
        #expect(output.status == 1, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(lines)")
        #expect(lines[0] == "ok    config    \(config)")
        #expect(lines[1] == "ok    state     \(directory.path) writable")
        #expect(
            lines[2].hasPrefix(
                "FAIL  pwm       no PWM chip in \(directory.path)/sys/class/pwm — add dtoverlay=pwm-2chan to /boot/firmware/config.txt"),
            "the directory searched, as the I2C line names its (issue 30, item 9)")
        #expect(
            lines[3].hasPrefix(
                "FAIL  i2c       \(directory.path)/i2c-1 does not exist — add dtparam=i2c_arm=on to /boot/firmware/config.txt and reboot"
            ))
        #expect(lines[4] == "--    imu       not checked: \(directory.path)/i2c-1 cannot be used")
        #expect(lines[5] == "ok    button    none configured (button none); input devices here:")
        #expect(lines[6] == "                no input devices in \(directory.path)/input", "the --dev-dir's input/, not this machine's")
        #expect(lines[7].hasPrefix("FAIL  gpsd      cannot connect to gpsd at 127.0.0.1:\(port)"), "\(lines[7])")
    }

    @Test("a real gpsd with a fix and a motor channel in use: ok lines for both")
    func gpsdAndRunningMotor() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let stopped = StopFlag()
        defer { stopped.stop() }
        Thread.detachNewThread {
            while !stopped.isSet {
                do { try gpsd.feed(Self.fixedLog) { stopped.isSet } } catch { return }
            }
        }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 2, periodNanoseconds: 40_000, dutyNanoseconds: 0)
        let config = directory.appendingPathComponent("waypointd.conf").path
        try "gpsd \(gpsd.address)\npwm-chip 1f00098000.pwm\npwm-channel 2\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let output = try ExternalTool.run(
            waypointd,
            [
                "check", "--config", config, "--state-dir", directory.path, "--sysfs-root", tree.root.path,
                "--dev-dir", directory.path, "--gps-timeout", "15",
            ])
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "ok    pwm       pwmchip0 (1f00098000.pwm) channel 2 in use (enabled), writable; left as it is"),
            "\(lines)")
        // The first epoch gpsd reports may be 2D, before it has seen the receiver's GSA.
        #expect(
            lines.contains {
                $0.hasPrefix("ok    gpsd      \(gpsd.address), 3D fix")
                    || $0.hasPrefix("ok    gpsd      \(gpsd.address), 2D fix")
            },
            "\(lines)")
        // Only the I2C bus is missing here.
        #expect(output.status == 1)
        #expect(lines.filter { $0.hasPrefix("FAIL") }.count == 1)
    }

    @Test("help, the top-level help line, and usage errors (exit 64)")
    func usage() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let help = try ExternalTool.run(waypointd, ["check", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("usage: waypointd check [--config PATH]"))
        #expect(
            help.standardOutput.contains(
                "Exit status: 0 when nothing failed (warnings allowed), 1 when an item failed, 64 usage error."))
        let top = try ExternalTool.run(waypointd, ["--help"])
        #expect(top.standardOutput.contains("waypointd check [--config PATH]"))
        for bad in [["--gps-timeout", "x"], ["--config"], ["--frobnicate"]] {
            let output = try ExternalTool.run(waypointd, ["check"] + bad)
            #expect(output.status == 64, "\(bad)")
            #expect(output.standardError.contains("Try 'waypointd check --help'."), "\(bad): \(output.standardError)")
        }
    }
}
