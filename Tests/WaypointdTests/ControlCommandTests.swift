import Foundation
import Testing
import TestSupport

/// Every control command against the real `waypointd --simulate` process over its real socket,
/// with a `watch` client collecting updates throughout.
@Suite("Control commands end to end", .timeLimit(.minutes(10)))
struct ControlCommandTests {
    @Test("buzz, go, go recent, recent, mute, calibrate (every action), clear and watch; mute survives a restart")
    func everyCommand() async throws {
        let daemon = try await SimulatedDaemon()
        let watcher = try ControlWatcher(path: daemon.socket, hertz: 5)
        let client = try daemon.client()

        let idle = try #require(client.request(#"{"cmd":"status"}"#))
        #expect(idle["state"] as? String == "idle")
        #expect(idle["destination"] is NSNull)
        #expect(idle["calibration"] as? String == "stored")
        #expect(idle["muted"] as? Bool == false)
        #expect(idle.object("haptic")?["duty"] as? Double == 0)
        #expect(idle["problems"] as? [String] == [])

        // buzz: the test pattern drives the motor at full duty (the period is 40 µs) while idle.
        #expect(client.request(#"{"cmd":"buzz"}"#)?["class"] as? String == "OK")
        let buzzing = try await daemon.waitForStatus(client, seconds: 1.5) { $0.object("haptic")?["pattern"] as? String == "test" }
        #expect(buzzing != nil, "the test pattern never showed in STATUS")
        #expect(daemon.dutyNanoseconds == "40000", "duty \(daemon.dutyNanoseconds) during the motor test")
        let quiet = try await daemon.waitForStatus(client, seconds: 2) { $0.object("haptic")?["pattern"] is NSNull }
        #expect(quiet != nil)
        #expect(daemon.dutyNanoseconds == "0")

        // go, recent, go recent.
        #expect(client.request(#"{"cmd":"go","lat":48.8560,"lon":2.2990,"name":"near"}"#)?["class"] as? String == "OK")
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let recent = try #require(client.request(#"{"cmd":"recent"}"#))
        #expect(recent["class"] as? String == "RECENT")
        let names = (recent["destinations"] as? [[String: Any]])?.map { $0["name"] as? String }
        #expect(names == ["far", "near"])
        #expect(client.request(#"{"cmd":"go","recent":2}"#)?["class"] as? String == "OK")
        #expect(client.request(#"{"cmd":"status"}"#)?.object("destination")?["name"] as? String == "near")
        let missing = try #require(client.request(#"{"cmd":"go","recent":5}"#))
        #expect(missing["code"] as? String == "not-found", "\(missing)")
        #expect(client.request(#"{"cmd":"go","recent":2}"#)?["class"] as? String == "OK")
        let guided = try await daemon.waitForStatus(client, seconds: 5) { $0["state"] as? String == "guiding" }
        #expect(guided?.object("destination")?["name"] as? String == "far", "\(String(describing: guided))")

        // mute: silent while guiding, once the queued "accepted" patterns have played; unmute.
        #expect(client.request(#"{"cmd":"mute","on":true}"#)?["class"] as? String == "OK")
        let patternsDone = try await daemon.waitForStatus(client, seconds: 5) { $0.object("haptic")?["pattern"] is NSNull }
        #expect(patternsDone != nil)
        for _ in 0..<20 {
            let status = try #require(client.request(#"{"cmd":"status"}"#))
            #expect(status["muted"] as? Bool == true)
            #expect(status["state"] as? String == "guiding")
            #expect(status.object("haptic")?["intensity"] is NSNull)
            #expect(daemon.dutyNanoseconds == "0", "the motor ran while muted")
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(client.request(#"{"cmd":"mute","on":false}"#)?["class"] as? String == "OK")
        #expect(client.request(#"{"cmd":"status"}"#)?["muted"] as? Bool == false)

        // calibrate: refused when not running; refused for too few samples; then the simulated
        // wearer tumbles the device until every octant has samples, and finish stores it.
        #expect(client.request(#"{"cmd":"calibrate","action":"finish"}"#)?["code"] as? String == "refused")
        let started = try #require(client.request(#"{"cmd":"calibrate","action":"start"}"#))
        #expect(started["class"] as? String == "CALIBRATION")
        #expect(started["state"] as? String == "running")
        #expect(client.request(#"{"cmd":"status"}"#)?["calibration"] as? String == "running")
        let early = try #require(client.request(#"{"cmd":"calibrate","action":"finish"}"#))
        #expect(early["code"] as? String == "refused")
        #expect((early["message"] as? String)?.contains("too few samples") == true, "\(early)")
        var covered = false
        for _ in 0..<80 where !covered {
            try await Task.sleep(for: .milliseconds(500))
            let progress = try #require(client.request(#"{"cmd":"calibrate","action":"status"}"#))
            let octants = progress["octants"] as? [Int] ?? []
            covered = octants.count == 8 && octants.allSatisfy { $0 >= 8 } && (progress["samples"] as? Int ?? 0) >= 150
        }
        #expect(covered, "the tumbling wearer never covered every octant")
        let stored = try #require(client.request(#"{"cmd":"calibrate","action":"finish"}"#))
        #expect(stored["class"] as? String == "CALIBRATION", "\(stored)")
        #expect(stored["state"] as? String == "stored")
        let quality = try #require(stored.object("quality"))
        #expect((quality["fitError"] as? Double ?? 100) < 5)
        #expect((quality["samples"] as? Int ?? 0) >= 150)
        #expect(stored["created"] is String)
        let played = try await daemon.waitForStatus(client, seconds: 2) {
            $0.object("haptic")?["pattern"] as? String == "calibrated"
        }
        #expect(played != nil, "the calibrated pattern did not play")
        #expect(client.request(#"{"cmd":"status"}"#)?["calibration"] as? String == "stored")

        #expect(client.request(#"{"cmd":"calibrate","action":"start"}"#)?["state"] as? String == "running")
        let cancelled = try #require(client.request(#"{"cmd":"calibrate","action":"cancel"}"#))
        #expect(cancelled["state"] as? String == "stored")
        #expect(cancelled.object("quality") != nil)

        // reset: the heading is no longer trusted, so guidance stops.
        let reset = try #require(client.request(#"{"cmd":"calibrate","action":"reset"}"#))
        #expect(reset["state"] as? String == "none")
        let unreliable = try await daemon.waitForStatus(client, seconds: 3) { $0["state"] as? String == "no-heading" }
        #expect(unreliable?.object("heading")?["reliable"] as? Bool == false, "\(String(describing: unreliable))")
        #expect(unreliable?.object("heading")?["problem"] as? String == "not-calibrated", "\(String(describing: unreliable))")
        // Long enough for the 5 Hz watcher to see it too (nothing else makes no-heading now).
        try await Task.sleep(for: .milliseconds(600))

        #expect(client.request(#"{"cmd":"clear"}"#)?["class"] as? String == "OK")
        let cleared = try #require(client.request(#"{"cmd":"status"}"#))
        #expect(cleared["state"] as? String == "idle")
        #expect(cleared["destination"] is NSNull)

        // The watcher heard it all, at its rate, without a gap.
        watcher.stop()
        #expect(!watcher.isDisconnected)
        let states = Set(watcher.received.compactMap { $0.status["state"] as? String })
        #expect(states.isSuperset(of: ["idle", "guiding", "no-heading"]), "\(states)")
        #expect(watcher.longestGapSeconds < 1, "longest gap \(watcher.longestGapSeconds) s")

        // Mute is saved: it is still on after a restart.
        #expect(client.request(#"{"cmd":"mute","on":true}"#)?["class"] as? String == "OK")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        let (restarted, again) = try await daemon.restart()
        defer { restarted.terminate() }
        #expect(again.request(#"{"cmd":"status"}"#)?["muted"] as? Bool == true)
    }

    @Test("abuse gets ERROR replies with the right codes while guidance and a watcher carry on")
    func abuse() async throws {
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let started = ContinuousClock.now
        let watcher = try ControlWatcher(path: daemon.socket, hertz: 5)
        // A watcher that never reads, for 30 s, at the fastest rate.
        let sluggard = try ControlClient(path: daemon.socket)
        sluggard.send(#"{"cmd":"watch","enable":true,"hz":10}"#)

        let cases: [(String, Set<String>)] = [
            (#"{"cmd":"go","lat":"#, ["bad-json"]),
            (#"not json at all"#, ["bad-json"]),
            (#"{"cmd":"teleport"}"#, ["unknown-command"]),
            (#"{"lat":1,"lon":2}"#, ["unknown-command"]),
            (#"{"cmd":"go","lat":"48.85","lon":2.29}"#, ["bad-argument"]),
            (#"{"cmd":"mute","on":"yes"}"#, ["bad-argument"]),
            (#"{"cmd":"go","lat":91,"lon":0}"#, ["bad-argument"]),
            (#"{"cmd":"go","lat":0,"lon":181}"#, ["bad-argument"]),
            (#"{"cmd":"go","lat":NaN,"lon":0}"#, ["bad-json", "bad-argument"]),
            (#"{"cmd":"go","lat":1e999,"lon":0}"#, ["bad-json", "bad-argument"]),
            (#"{"cmd":"status","pad":""# + String(repeating: "x", count: 70_000) + "\"}", ["line-too-long"]),
        ]
        for (line, codes) in cases {
            let reply = try #require(client.request(line), "no reply to \(line.prefix(60))")
            #expect(reply["class"] as? String == "ERROR")
            #expect(codes.contains(reply["code"] as? String ?? ""), "\(line.prefix(60)): \(reply)")
        }
        // Invalid UTF-8, then an empty line (ignored: the next reply is the status's).
        client.send(bytes: Array(#"{"cmd":"go","name":""#.utf8) + [0xC3, 0x28, 0xFF] + Array("\"}\n".utf8))
        #expect(client.receive()?["code"] as? String == "bad-json")
        client.send("")
        #expect(client.request(#"{"cmd":"status"}"#)?["class"] as? String == "STATUS")

        // A client that disconnects mid-line: its half request is never run.
        do {
            let quitter = try daemon.client()
            quitter.send(bytes: Array(#"{"cmd":"go","lat":10,"lon":10,"name":"half"#.utf8))
        }

        // 100 clients at once: as many as the daemon allows are greeted, the rest refused.
        var crowd: [ControlClient] = []
        var greeted = 0
        var refused = 0
        for _ in 0..<100 {
            let member = try ControlClient(path: daemon.socket)
            switch member.receive()?["class"] as? String {
            case "VERSION": greeted += 1
            case "ERROR": refused += 1
            default: break
            }
            crowd.append(member)
        }
        #expect(greeted + refused == 100)
        #expect(greeted >= 20 && greeted <= 32, "greeted \(greeted)")
        let refusal = try ControlClient(path: daemon.socket).receive()
        #expect(refusal?["code"] as? String == "too-many-clients", "\(String(describing: refusal))")
        crowd.removeAll()

        // Keep the slow watcher unread for 30 s while the daemon guides.
        while ContinuousClock.now - started < .seconds(30) {
            #expect(client.request(#"{"cmd":"status"}"#)?["class"] as? String == "STATUS")
            try await Task.sleep(for: .milliseconds(500))
        }
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        #expect(status.object("destination")?["name"] as? String == "far", "\(status)")
        #expect(["guiding", "arrived"].contains(status["state"] as? String ?? ""), "\(status)")
        watcher.stop()
        #expect(!watcher.isDisconnected)
        #expect(watcher.received.count >= 140, "\(watcher.received.count) updates in 30 s at 5 Hz")
        #expect(watcher.longestGapSeconds < 1, "longest gap \(watcher.longestGapSeconds) s")
        let guiding = watcher.received.filter { $0.status["state"] as? String == "guiding" }.count
        #expect(guiding > watcher.received.count / 2, "guiding in \(guiding) of \(watcher.received.count) updates")
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
