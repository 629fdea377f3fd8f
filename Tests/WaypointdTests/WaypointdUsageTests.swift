import Foundation
import Testing
import TestSupport

/// The built `waypointd` through the one argument reader (issue 18): every subcommand names the
/// mistake the same way, with exit status 64 and the help to read.
@Suite("waypointd command lines", .timeLimit(.minutes(10)))
struct WaypointdUsageTests {
    @Test(
        "mistakes: the message, then the help of the command they were made in",
        arguments: [
            (["check", "--bogus"], "unknown option '--bogus' for 'check'", "check"),
            (["check", "--config"], "--config needs a value", "check"),
            (["check", "--config", ""], "--config needs a path", "check"),
            (["check", "extra"], "check takes no arguments; got 'extra'", "check"),
            (["check", "--gps-timeout", "-1"], "--gps-timeout needs a number of seconds", "check"),
            (["gps", "--count", "-3"], "--count '-3' is not a positive whole number", "gps"),
            (["gps", "--server", "host:99999"], "bad gpsd address 'host:99999': the port '99999' is not a number from 1 to 65535", "gps"),
            (["replay"], "replay needs exactly one FILE", "replay"),
            (["replay", "a.jsonl", "b.jsonl"], "replay needs exactly one FILE", "replay"),
            (["motor-test", "--force"], "unknown option '--force' for 'motor-test'", "motor-test"),
            (["motor-off", "--pattern", "test"], "unknown option '--pattern' for 'motor-off'", "motor-off"),
            (["motor-test", "--pwm-channel", "-1"], "--pwm-channel needs a channel number", "motor-test"),
            (["motor-test", "--pattern", "loud"], "--pattern takes one of:", "motor-test"),
            (["--print-config", "--config"], "--config needs a value", nil),
            (["--bogus"], "unknown option '--bogus'", nil),
            (["--simulate-events", "events.txt"], "--simulate-events only applies with --simulate", nil),
            (["--simulate", "--log-level", "loud"], "--log-level takes trace, debug", nil),
            (["frobnicate"], "unknown command 'frobnicate'", nil),
            (["print-config"], "unknown command 'print-config'; did you mean '--print-config'?", nil),
            (["chek"], "unknown command 'chek'; did you mean 'check'?", nil),
        ] as [([String], String, String?)])
    func mistakes(arguments: [String], message: String, command: String?) throws {
        let waypointd = try ExternalTool.built("waypointd")
        let output = try ExternalTool.run(waypointd, arguments)
        #expect(output.status == 64, "\(arguments): \(output.standardError)")
        #expect(output.standardError.hasPrefix("waypointd: \(message)"), "\(arguments): \(output.standardError)")
        let hint = "Try 'waypointd \(command.map { "\($0) " } ?? "")--help'.\n"
        #expect(output.standardError.hasSuffix(hint), "\(arguments): \(output.standardError)")
        #expect(output.standardOutput.isEmpty)
    }

    @Test("motor-test says what it played, on which chip (not the selector 'auto': issue 30, item 11), and that the motor is off")
    func motorTestSays() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let tree = try PWMSysfsTree()
        try tree.exportRunning(chip: "pwmchip0", channel: 0, periodNanoseconds: 0, dutyNanoseconds: 0)
        let output = try ExternalTool.run(waypointd, ["motor-test", "--pattern", "accepted", "--sysfs-root", tree.root.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "motor-test: played accepted on PWM chip pwmchip0, channel 0; the motor is off\n")
        #expect(tree.value("pwmchip0/pwm0/duty_cycle") == "0")
    }
}
