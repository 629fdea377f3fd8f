import Foundation
import Testing
import TestSupport

@testable import Haptics

@Suite("The sysfs PWM channel against a tree that enforces the kernel's rules", .timeLimit(.minutes(5)))
struct SysfsPWMChannelTests {
    static let period: UInt64 = 40_000

    @Test("export, wait out udev, period before duty before enable; shut down in reverse and unexport")
    func lifecycle() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 5)
        var sleeps = 0
        let channel = try SysfsPWMChannel(
            fileSystem: tree, chip: .device("1f00098000.pwm"), channel: 2, periodNanoseconds: Self.period,
            sleep: { _ in sleeps += 1 })
        #expect(sleeps >= 1, "the udev delay was waited out")
        #expect(tree.writes.map(\.description) == [
            "/sys/class/pwm/pwmchip0/export <- 2",
            "/sys/class/pwm/pwmchip0/pwm2/period <- 40000",
            "/sys/class/pwm/pwmchip0/pwm2/duty_cycle <- 0",
            "/sys/class/pwm/pwmchip0/pwm2/enable <- 1",
        ])
        // Set up by path; duty_cycle is then kept open for the pulses, and enable for reading back.
        #expect(!tree.writes.contains { $0.throughOpenAttribute })
        #expect(tree.openAttributes == ["/sys/class/pwm/pwmchip0/pwm2/duty_cycle", "/sys/class/pwm/pwmchip0/pwm2/enable"])
        try channel.setDuty(0.5)
        #expect(tree.value("pwmchip0/pwm2/duty_cycle") == "20000")
        try channel.setDuty(7)  // clamped to the period
        #expect(tree.value("pwmchip0/pwm2/duty_cycle") == "40000")
        #expect(tree.writes.suffix(2).map(\.throughOpenAttribute) == [true, true], "pulses go through it")
        try channel.shutDown()
        #expect(tree.writes.suffix(3).map(\.description) == [
            "/sys/class/pwm/pwmchip0/pwm2/duty_cycle <- 0",
            "/sys/class/pwm/pwmchip0/pwm2/enable <- 0",
            "/sys/class/pwm/pwmchip0/unexport <- 2",
        ])
        #expect(tree.value("pwmchip0/pwm2/enable") == nil, "unexported")
        #expect(tree.openAttributes.isEmpty)
        #expect(tree.attributesOpenAtUnexport.isEmpty, "duty_cycle was closed before the channel was unexported")
        try channel.shutDown()  // a second time does nothing
        #expect(tree.writes.count == 7 + 2)
        // A late pulse edge (the stop deadline shut the channel down under the player) writes
        // nothing and says why.
        #expect {
            try channel.setDuty(0.5)
        } throws: { error in
            "\(error)".hasPrefix(
                "cannot set the duty cycle of a channel already shut down (/sys/class/pwm/pwmchip0/pwm2/duty_cycle)")
        }
        #expect(tree.writes.count == 7 + 2)
    }

    @Test("an exported, running channel is reused, brought to a safe period order, and left exported")
    func reuse() throws {
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 1_000_000, dutyNanoseconds: 600_000)
        let channel = try SysfsPWMChannel(fileSystem: tree, chip: .numbered("pwmchip0"), channel: 0, periodNanoseconds: Self.period)
        // A shorter period than the running duty must come after lowering the duty.
        #expect(tree.writes.map(\.description) == [
            "/sys/class/pwm/pwmchip0/pwm0/duty_cycle <- 0",
            "/sys/class/pwm/pwmchip0/pwm0/period <- 40000",
            "/sys/class/pwm/pwmchip0/pwm0/duty_cycle <- 0",
            "/sys/class/pwm/pwmchip0/pwm0/enable <- 1",
        ])
        #expect(tree.writes.allSatisfy { $0.errno == 0 })
        try channel.shutDown()
        #expect(!tree.writes.contains { $0.path.hasSuffix("unexport") }, "not ours to unexport")
        #expect(tree.value("pwmchip0/pwm0/enable") == "0")
    }

    @Test("EPERM or EACCES: the gpio group advised to a user, never to root (issue 30, item 16)")
    func permissionAdvice() {
        for errno in [EPERM, EACCES] {
            #expect(PWMError.explain(errno, asRoot: false).contains("add the user to the 'gpio' group"))
            let asRoot = PWMError.explain(errno, asRoot: true)
            #expect(!asRoot.contains("gpio"), "\(asRoot)")
            #expect(asRoot.contains("even as root"), "\(asRoot)")
        }
    }

    @Test("a missing chip names the chips present; a channel past npwm and a claimed channel are explained")
    func missing() throws {
        let tree = try PWMSysfsTree(devices: ["1f00098000.pwm", "1f0009c000.pwm"])
        #expect {
            _ = try SysfsPWMChannel(fileSystem: tree, chip: .device("fe20c000.pwm"), channel: 0, periodNanoseconds: Self.period)
        } throws: { error in
            "\(error)" == "no PWM chip 'fe20c000.pwm' in /sys/class/pwm; chips present: pwmchip0 (1f00098000.pwm), pwmchip1 (1f0009c000.pwm)"
        }
        #expect {
            _ = try SysfsPWMChannel(fileSystem: tree, chip: .numbered("pwmchip7"), channel: 0, periodNanoseconds: Self.period)
        } throws: { error in "\(error)".contains("no PWM chip 'pwmchip7'") }
        #expect {
            _ = try SysfsPWMChannel(fileSystem: tree, chip: .auto, channel: 4, periodNanoseconds: Self.period)
        } throws: { error in "\(error)" == "pwmchip0 has 4 channels (0…3); channel 4 does not exist" }
        tree.claim(chip: "pwmchip1", channel: 3)
        #expect {
            _ = try SysfsPWMChannel(fileSystem: tree, chip: .device("1f0009c000.pwm"), channel: 3, periodNanoseconds: Self.period)
        } throws: { error in "\(error)".contains("claimed by a kernel driver") }
        let empty = try PWMSysfsTree(devices: [])
        #expect {
            _ = try SysfsPWMChannel(fileSystem: empty, chip: .auto, channel: 0, periodNanoseconds: Self.period)
        } throws: { error in "\(error)".contains("chips present: none (enable one: dtoverlay=pwm") }
    }

    @Test("udev never granting access ends in a bounded wait with advice")
    func permissionTimeout() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 1_000_000)
        var waited = Duration.zero
        #expect {
            _ = try SysfsPWMChannel(
                fileSystem: tree, chip: .auto, channel: 0, periodNanoseconds: Self.period,
                permissionTimeout: .seconds(3), sleep: { waited += $0 })
        } throws: { error in
            "\(error)".contains("did not become writable in time") && "\(error)".contains("'gpio' group")
        }
        #expect(waited >= .seconds(3) && waited < .seconds(4))
    }

    @Test("a read-only sysfs names systemd's ReadWritePaths=")
    func readOnly() throws {
        let tree = try PWMSysfsTree()
        tree.makeReadOnly()
        #expect {
            _ = try SysfsPWMChannel(fileSystem: tree, chip: .auto, channel: 0, periodNanoseconds: Self.period)
        } throws: { error in
            "\(error)".hasPrefix("cannot export channel 0 (/sys/class/pwm/pwmchip0/export): Read-only file system")
                && "\(error)".contains("ReadWritePaths=")
        }
    }

    @Test("a write that fails midway leaves the motor off and reports the error")
    func failureMidway() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 0)
        let channel = try SysfsPWMChannel(fileSystem: tree, chip: .auto, channel: 1, periodNanoseconds: Self.period)
        try channel.setDuty(0.8)
        #expect(tree.value("pwmchip0/pwm1/duty_cycle") == "32000")
        tree.failNextWrite(to: "/sys/class/pwm/pwmchip0/pwm1/duty_cycle", errno: EIO)
        #expect {
            try channel.setDuty(0.3)
        } throws: { error in "\(error)".hasPrefix("cannot set the duty cycle (/sys/class/pwm/pwmchip0/pwm1/duty_cycle)") }
        #expect(tree.writes.first { $0.errno == EIO }?.throughOpenAttribute == true, "the pulse's own write failed")
        #expect(tree.value("pwmchip0/pwm1/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm1/enable") == "0")
        try channel.shutDown()
        #expect(tree.openAttributes.isEmpty)

        // A failure while configuring: enable is refused, so the channel is switched off and released.
        let second = try PWMSysfsTree(udevDelayChecks: 0)
        second.failNextWrite(to: "/sys/class/pwm/pwmchip0/pwm0/enable", errno: EINVAL)
        #expect {
            _ = try SysfsPWMChannel(fileSystem: second, chip: .auto, channel: 0, periodNanoseconds: Self.period)
        } throws: { error in "\(error)".contains("cannot enable the output") && "\(error)".contains("refused the value") }
        #expect(second.value("pwmchip0/pwm0/duty_cycle") == nil, "unexported after the failure")
        #expect(second.writes.last?.description == "/sys/class/pwm/pwmchip0/unexport <- 0")

        // duty_cycle cannot be kept open: the same, switched off and released.
        let third = try PWMSysfsTree(udevDelayChecks: 0)
        third.failNextOpen(of: "/sys/class/pwm/pwmchip0/pwm0/duty_cycle", errno: EMFILE)
        #expect {
            _ = try SysfsPWMChannel(fileSystem: third, chip: .auto, channel: 0, periodNanoseconds: Self.period)
        } throws: { error in
            "\(error)".hasPrefix("cannot open the duty cycle (/sys/class/pwm/pwmchip0/pwm0/duty_cycle)")
        }
        #expect(third.writes.suffix(3).map(\.description) == [
            "/sys/class/pwm/pwmchip0/pwm0/duty_cycle <- 0",
            "/sys/class/pwm/pwmchip0/pwm0/enable <- 0",
            "/sys/class/pwm/pwmchip0/unexport <- 0",
        ])
        #expect(third.openAttributes.isEmpty)
    }

    @Test("verify finds another writer, a disabled output or an unexported channel; reopen sets it up again")
    func verifyAndReopen() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 0)
        let channel = try SysfsPWMChannel(fileSystem: tree, chip: .auto, channel: 0, periodNanoseconds: Self.period)
        let duty = "/sys/class/pwm/pwmchip0/pwm0/duty_cycle"
        try channel.setDuty(0.5)
        try channel.verify()

        // Another program (`waypointd motor-off --force`) writes the duty by path.
        try tree.write("0", to: duty)
        #expect(throws: PWMError.changedUnderneath(path: duty, written: "20000", found: "0")) { try channel.verify() }
        try channel.reopen()
        try channel.verify()
        try channel.setDuty(0.25)
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "10000")
        try channel.verify()

        // Or disables the output.
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/pwm0/enable")
        #expect(throws: PWMError.changedUnderneath(path: "/sys/class/pwm/pwmchip0/pwm0/enable", written: "1", found: "0")) {
            try channel.verify()
        }
        #expect("\(PWMError.changedUnderneath(path: duty, written: "1", found: "0"))".contains("another program is driving the motor"))

        // Or unexports the channel: the open attribute is orphaned (ENODEV), the read-back finds
        // nothing, and reopening exports it again.
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/unexport")
        #expect(throws: PWMError.self) { try channel.setDuty(0.5) }
        #expect(throws: PWMError.self) { try channel.verify() }
        try channel.reopen()
        try channel.setDuty(0.5)
        try channel.verify()
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "20000")
        #expect(tree.value("pwmchip0/pwm0/enable") == "1")
        try channel.shutDown()
        #expect(tree.openAttributes.isEmpty)
        #expect(throws: PWMError.self) { try channel.verify() }
    }

    @Test("the tree itself refuses what the kernel refuses")
    func treeRules() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 0)
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/export")
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/export", errno: EBUSY)) {
            try tree.write("0", to: "/sys/class/pwm/pwmchip0/export")
        }
        for attribute in ["duty_cycle", "enable", "polarity"] {
            #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/pwm0/\(attribute)", errno: EINVAL)) {
                try tree.write("0", to: "/sys/class/pwm/pwmchip0/pwm0/\(attribute)")
            }
        }
        try tree.write("1000", to: "/sys/class/pwm/pwmchip0/pwm0/period")
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/pwm0/duty_cycle", errno: EINVAL)) {
            try tree.write("1001", to: "/sys/class/pwm/pwmchip0/pwm0/duty_cycle")
        }
        try tree.write("1000", to: "/sys/class/pwm/pwmchip0/pwm0/duty_cycle")
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/pwm0/period", errno: EINVAL)) {
            try tree.write("999", to: "/sys/class/pwm/pwmchip0/pwm0/period")
        }
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/unexport", errno: ENODEV)) {
            try tree.write("3", to: "/sys/class/pwm/pwmchip0/unexport")
        }
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip0/export", errno: ENODEV)) {
            try tree.write("4", to: "/sys/class/pwm/pwmchip0/export")
        }
    }

    @Test("an attribute kept open in the tree is held to the same rules, logged the same way, and orphaned by unexport")
    func treeOpenAttribute() throws {
        let tree = try PWMSysfsTree(udevDelayChecks: 1)
        let dutyPath = "/sys/class/pwm/pwmchip0/pwm0/duty_cycle"
        #expect(throws: SysfsError(path: dutyPath, errno: ENOENT)) { _ = try tree.openAttribute(dutyPath) }
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/export")
        #expect(throws: SysfsError(path: dutyPath, errno: EACCES), "udev has not run yet") {
            _ = try tree.openAttribute(dutyPath)
        }
        _ = tree.isWritable(dutyPath)  // udev's rule runs
        let dutyCycle = try tree.openAttribute(dutyPath)
        #expect(tree.openAttributes == [dutyPath])
        #expect(throws: SysfsError(path: dutyPath, errno: EINVAL), "no period yet") { try dutyCycle.write(0) }
        try tree.write("1000", to: "/sys/class/pwm/pwmchip0/pwm0/period")
        try dutyCycle.write(1000)
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "1000")
        #expect(throws: SysfsError(path: dutyPath, errno: EINVAL), "above the period") { try dutyCycle.write(1001) }
        tree.failNextWrite(to: dutyPath, errno: EIO)
        #expect(throws: SysfsError(path: dutyPath, errno: EIO)) { try dutyCycle.write(10) }
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "1000")

        // Unexported under the open attribute: its writes fail as the kernel's do, even once
        // the channel is exported again.
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/unexport")
        #expect(tree.attributesOpenAtUnexport == [dutyPath])
        try tree.write("0", to: "/sys/class/pwm/pwmchip0/export")
        #expect(throws: SysfsError(path: dutyPath, errno: ENODEV)) { try dutyCycle.write(0) }
        try dutyCycle.close()
        #expect(tree.openAttributes.isEmpty)

        let throughAttribute = tree.writes.filter(\.throughOpenAttribute).map(\.description)
        #expect(throughAttribute == [
            "\(dutyPath) <- 0 (errno \(EINVAL))",
            "\(dutyPath) <- 1000",
            "\(dutyPath) <- 1001 (errno \(EINVAL))",
            "\(dutyPath) <- 10 (errno \(EIO))",
            "\(dutyPath) <- 0 (errno \(ENODEV))",
        ])

        let readOnly = try PWMSysfsTree(udevDelayChecks: 0)
        try readOnly.write("0", to: "/sys/class/pwm/pwmchip0/export")
        readOnly.makeReadOnly()
        #expect(throws: SysfsError(path: dutyPath, errno: EROFS)) { _ = try readOnly.openAttribute(dutyPath) }
    }

    @Test("forceOff stops a running channel, and leaves an unconfigured or unexported one alone")
    func forceOff() throws {
        let tree = try PWMSysfsTree()
        try SysfsPWMChannel.forceOff(fileSystem: tree, chip: .auto, channel: 0)
        #expect(tree.writes.isEmpty)
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 40_000, dutyNanoseconds: 30_000)
        try SysfsPWMChannel.forceOff(fileSystem: tree, chip: .auto, channel: 0)
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "0")
        #expect(tree.value("pwmchip0/pwm0/enable") == "0")
        #expect(tree.value("pwmchip0/pwm0/period") == "40000", "still exported for the next start")
    }

    @Test("over LinuxSysfs, each duty replaces the whole of the last in the file, and shutdown leaves it off")
    func channelOverLinuxSysfs() throws {
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: Self.period, dutyNanoseconds: 30_000)
        let channel = try SysfsPWMChannel(
            fileSystem: LinuxSysfs(root: tree.root.path), chip: .auto, channel: 0, periodNanoseconds: Self.period)
        let duty = tree.root.appendingPathComponent("sys/class/pwm/pwmchip0/pwm0/duty_cycle")
        for (fraction, text) in [(0.5, "20000\n"), (0.001, "40\n"), (1, "40000\n"), (0, "0\n")] {
            try channel.setDuty(fraction)
            #expect(try String(contentsOf: duty, encoding: .utf8) == text)
        }
        try channel.setDuty(0.75)
        try channel.shutDown()
        #expect(try String(contentsOf: duty, encoding: .utf8) == "0\n")
        #expect(tree.value("pwmchip0/pwm0/enable") == "0")
    }

    @Test("LinuxSysfs reads, writes and lists a real directory, with errno for what fails")
    func linuxSysfs() throws {
        let tree = try PWMSysfsTree()
        let sysfs = LinuxSysfs(root: tree.root.path)
        #expect(sysfs.contents(of: "/sys/class/pwm") == ["pwmchip0"])
        #expect(try sysfs.read("/sys/class/pwm/pwmchip0/npwm") == "4")
        #expect(sysfs.linkTarget("/sys/class/pwm/pwmchip0/device")?.hasSuffix("/1f00098000.pwm") == true)
        try sysfs.write("7", to: "/sys/class/pwm/pwmchip0/export")
        #expect(try sysfs.read("/sys/class/pwm/pwmchip0/export") == "7")
        #expect(throws: SysfsError(path: "/sys/class/pwm/pwmchip9/npwm", errno: ENOENT)) {
            try sysfs.read("/sys/class/pwm/pwmchip9/npwm")
        }
        #expect(throws: SysfsError(path: "/nowhere/x", errno: ENOENT)) { try sysfs.write("1", to: "/nowhere/x") }
        #expect(sysfs.isWritable("/sys/class/pwm/pwmchip0/export"))
        #expect(!sysfs.exists("/sys/class/pwm/pwmchip0/pwm0"))
    }
}
