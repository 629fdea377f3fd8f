import CommandLineSupport
import ControlProtocol
import SystemSupport

/// `waypointctl button test`: puts the daemon's button in test mode (each gesture confirmed on
/// the motor and shown, none carried out), then prints every gesture as the daemon recognises
/// it, and a device's coming and going, until the time is up or SIGINT. For setting a button
/// up: which device is read, and what a press, a double or a long press look like to the daemon.
enum ButtonTestCommand {
    /// How often the daemon is asked: a gesture is printed within this of its recognition.
    static let pollInterval = Duration.milliseconds(100)

    /// - Returns: 0 when the time is up or interrupted; 1 when the daemon has no button.
    static func run(seconds: Double, session: DaemonSession) throws(DaemonFailure) -> ExitStatus {
        let first = try DaemonCommand.status(session)
        guard first?.button != nil else {
            Console.error("the daemon reads no button: set button in its config file (waypointd.conf(5))")
            return .failure
        }
        let reply = try session.send(.buttonTest(seconds: seconds)).reply
        if case .error(let error) = reply { throw .refused(error) }
        let stop = StopSignal(interrupter: session.connection.interrupter)
        defer { stop.cancel() }
        Console.output("button test for \(Int(seconds)) s: each gesture is felt and printed, not carried out; Ctrl-C ends it")
        var devices: [StatusReport.Button.Device] = []
        var lastSerial = first?.button?.pressed?.serial ?? 0
        var waited = Duration.zero
        let limit = Duration.seconds(seconds)
        while waited < limit, !stop.hasFired {
            let button = try DaemonCommand.status(session)?.button
            for device in button?.devices ?? [] where !devices.contains(device) { Console.output(line(device)) }
            devices = button?.devices ?? []
            if let pressed = button?.pressed, pressed.serial != lastSerial {
                // Presses between two polls are counted, not lost without a word.
                let missed = pressed.serial - lastSerial - 1
                Console.output("pressed: \(pressed.gesture)" + (missed > 0 ? " (and \(missed) more before it)" : ""))
                lastSerial = pressed.serial
            }
            ThreadSleep.sleep(for: pollInterval)
            waited += pollInterval
        }
        // The button acts again at once, not when the test's time would have run out.
        _ = try? session.send(.buttonTest(seconds: 0))
        Console.output("button test ended: the button acts again")
        return .success
    }

    /// How a device stands, for a person setting it up.
    static func line(_ device: StatusReport.Button.Device) -> String {
        let name = device.name.map { " (\($0))" } ?? ""
        return device.ready ? "device \(device.device)\(name): read" : "device \(device.device)\(name): \(device.problem ?? "not read")"
    }
}
