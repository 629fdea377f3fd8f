import Foundation
import Testing
import TestSupport

/// Signals a user, a terminal or `systemctl reload` can send must not end the daemon with the
/// motor running: each is logged and ignored (SIGPIPE silently), and SIGTERM still stops it
/// with the motor off.
@Suite("Signals")
struct SignalTests {
    @Test(
        "SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE and the rest of the terminating signals leave it guiding; SIGTERM stops it with the motor off",
        arguments: [
            ("SIGHUP", SIGHUP), ("SIGUSR1", SIGUSR1), ("SIGUSR2", SIGUSR2), ("SIGALRM", SIGALRM), ("SIGPIPE", SIGPIPE),
            ("SIGVTALRM", SIGVTALRM), ("SIGPROF", SIGPROF), ("SIGIO", SIGIO), ("SIGXCPU", SIGXCPU), ("SIGXFSZ", SIGXFSZ),
            ("SIGPWR", SIGPWR), ("SIGSTKFLT", SIGSTKFLT),
        ])
    func ignored(name: String, number: Int32) async throws {
        guard let daemon = try await SimulatedDaemon() else { return }
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let guiding = try await daemon.waitForStatus(client, seconds: 10) { $0["state"] as? String == "guiding" }
        #expect(guiding != nil, "\(daemon.log)")
        for _ in 0..<3 {
            kill(daemon.process.processID, number)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(daemon.process.isRunning, "\(name) ended the daemon: \(daemon.log)")
        #expect(client.request(#"{"cmd":"status"}"#)?["state"] as? String == "guiding", "\(name): \(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(daemon.dutyNanoseconds == "0", "the motor was left at \(daemon.dutyNanoseconds)")
    }
}
