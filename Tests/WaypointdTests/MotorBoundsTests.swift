import Foundation
import Testing
import TestSupport

/// No sequence of requests can hold the motor on: the real daemon on the simulated board, its
/// motor's `duty_cycle` read from the sysfs tree, driven by a client as an attacker in the
/// `waypoint` group would.
@Suite("The motor under a stream of requests", .timeLimit(.minutes(10)))
struct MotorBoundsTests {
    @Test("a thousand buzz requests, then clear: the motor is off within 0.5 s and stays off", arguments: ["clear", "mute"])
    func buzzFlood(stop: String) async throws {
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        // One write, as a client that pipelines does: the daemon reads no further while replies
        // wait for a client, so a client that wrote a thousand lines one send at a time before
        // reading any reply would fill both directions' buffers and stall (see README, Limits).
        client.send(bytes: Array(String(repeating: #"{"cmd":"buzz","pattern":"test"}"# + "\n", count: 1000).utf8))
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
@Suite("A client that half-closes", .timeLimit(.minutes(10)))
struct HalfCloseTests {
    @Test("requests sent before the client shuts down its sending side are all answered, then the daemon closes")
    func answeredThenClosed() async throws {
        let daemon = try await SimulatedDaemon()
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

/// Issue 17, item 8: the motor's channel going wrong under the daemon while it guides.
@Suite("A PWM channel that fails during guidance", .timeLimit(.minutes(10)))
struct PWMFaultTests {
    @Test("duty_cycle removed, or a directory in its place: a problem in status, logged once, and recovered once it is back",
          arguments: ["removed", "directory"])
    func channelFault(kind: String) async throws {
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let duty = daemon.tree.root.appendingPathComponent("sys/class/pwm/pwmchip0/pwm0/duty_cycle")
        try await Task.sleep(for: .seconds(1))
        try FileManager.default.removeItem(at: duty)
        if kind == "directory" { try FileManager.default.createDirectory(at: duty, withIntermediateDirectories: false) }

        let failed = try await daemon.waitForStatus(client, seconds: 5) { status in
            (status["problems"] as? [String])?.contains { $0.hasPrefix("motor: ") && $0.contains("duty") } == true
        }
        let status = try #require(failed, "no motor problem in status; \(daemon.log)")
        #expect((status["haptic"] as? [String: Any])?["duty"] as? Double == 0, "status shows the motor off: \(status)")
        try await Task.sleep(for: .seconds(2))
        #expect(daemon.process.errors.filter { $0.text.contains("the motor failed") }.count == 1, "\(daemon.log)")

        // Mended: the file is back; the next attempt (within 1 + 2 + 4 s) sets the channel up again.
        if kind == "directory" { try FileManager.default.removeItem(at: duty) }
        try "0\n".write(to: duty, atomically: false, encoding: .utf8)
        let mended = try await daemon.waitForStatus(client, seconds: 12) { status in
            (status["problems"] as? [String]) == []
        }
        #expect(mended != nil, "the motor problem stayed; \(daemon.log)")
        #expect(daemon.logged("the motor works again") != nil, "\(daemon.log)")
        // Pulses reach the restored file again.
        var sawPulse = false
        for _ in 0..<100 where !sawPulse {
            sawPulse = daemon.dutyNanoseconds != "0" && daemon.dutyNanoseconds != "?"
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(sawPulse, "no pulse after the mend")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
