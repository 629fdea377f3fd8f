import Foundation
import Testing
import TestSupport

/// No sequence of requests can hold the motor on: the real daemon on the simulated board, its
/// motor's `duty_cycle` read from the sysfs tree, driven by a client as an attacker in the
/// `waypoint` group would.
@Suite("The motor under a stream of requests")
struct MotorBoundsTests {
    @Test("a thousand buzz requests, then clear: the motor is off within 0.5 s and stays off", arguments: ["clear", "mute"])
    func buzzFlood(stop: String) async throws {
        guard let daemon = try await SimulatedDaemon() else { return }
        let client = try daemon.client()
        for _ in 0..<1000 { client.send(#"{"cmd":"buzz","pattern":"test"}"#) }
        var accepted = 0
        var refused = 0
        for _ in 0..<1000 {
            let reply = try #require(client.receive(), "\(daemon.log)")
            if reply["class"] as? String == "OK" { accepted += 1 }
            if reply["code"] as? String == "refused" { refused += 1 }
        }
        #expect(accepted >= 1 && accepted + refused == 1000, "\(accepted) accepted, \(refused) refused")
        let request = stop == "clear" ? #"{"cmd":"clear"}"# : #"{"cmd":"mute","on":true}"#
        #expect(client.request(request)?["class"] as? String == "OK")
        let stopped = ContinuousClock.now
        while daemon.dutyNanoseconds != "0", ContinuousClock.now - stopped < .seconds(2) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let off = ContinuousClock.now - stopped
        #expect(daemon.dutyNanoseconds == "0" && off <= .milliseconds(500), "the motor went off after \(off)")
        // And stays off: nothing queued behind the stop plays.
        for _ in 0..<30 {
            try await Task.sleep(for: .milliseconds(50))
            #expect(daemon.dutyNanoseconds == "0", "the motor came on again after \(stop)")
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
