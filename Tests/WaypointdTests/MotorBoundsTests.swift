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

/// Shell scripts talk to sockets by writing their requests and closing their side, as
/// `echo '{"cmd":"status"}' | socat - UNIX-CONNECT:…` does: every complete request read gets its
/// reply before the daemon closes.
@Suite("A client that half-closes")
struct HalfCloseTests {
    @Test("requests sent before the client shuts down its sending side are all answered, then the daemon closes")
    func answeredThenClosed() async throws {
        guard let daemon = try await SimulatedDaemon() else { return }
        let client = try daemon.client()
        client.send(#"{"cmd":"status"}"#)
        client.send(#"{"cmd":"go","lat":48.8583,"lon":2.2986,"name":"far"}"#)
        client.send(#"{"cmd":"recent"}"#)
        client.finishSending()
        #expect(client.receive()?["class"] as? String == "STATUS", "\(daemon.log)")
        #expect(client.receive()?["class"] as? String == "OK")
        #expect(client.receive()?["class"] as? String == "RECENT")
        #expect(client.receive() == nil, "the daemon closes after the last reply")
        let status = try daemon.client().request(#"{"cmd":"status"}"#)
        #expect((status?["destination"] as? [String: Any])?["name"] as? String == "far")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
