import Foundation
import Testing
import TestSupport

/// Every `waypointctl` daemon command, the real client binary against the real
/// `waypointd --simulate` over its real socket.
@Suite("waypointctl against the real daemon", .timeLimit(.minutes(10)))
struct WaypointctlEndToEndTests {
    @Test("go in every coordinate form, recent, go --recent, status, mute, buzz, calibrate, watch, clear; errors exit 1")
    func everyCommand() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        func run(_ arguments: String...) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, ["--socket", daemon.socket] + arguments)
        }
        let client = try daemon.client()
        func destination() -> [String: Any]? { client.request(#"{"cmd":"status"}"#)?.object("destination") }

        // Three places more than 5 m apart: the recent list keeps one entry per place.
        // go: decimal with a name, DMS, geo: URI; each lands in the daemon as the same place.
        var output = try run("go", "48.8560", "2.2990", "--name", "near")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(destination()?["name"] as? String == "near")
        output = try run("go", #"48°51'25.0"N 2°17'55.0"E"#)
        #expect(output.status == 0, "\(output.standardError)")
        let dms = try #require(destination())
        #expect(abs((dms["lat"] as? Double ?? 0) - (48 + 51 / 60.0 + 25.0 / 3600)) < 1e-9)
        #expect(abs((dms["lon"] as? Double ?? 0) - (2 + 17 / 60.0 + 55.0 / 3600)) < 1e-9)
        output = try run("go", "geo:48.8583,2.2986", "--name", "far")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(destination()?["lat"] as? Double == 48.8583)

        // recent lists newest first, numbered for go --recent.
        output = try run("recent")
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.first?.contains("1") == true && lines.first?.contains("far") == true, "\(output.standardOutput)")
        #expect(output.standardOutput.contains("near"))
        output = try run("go", "--recent", "3")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(destination()?["name"] as? String == "near")
        output = try run("go", "--recent", "5")
        #expect(output.status == 1, "a refused request exits 1")
        #expect(output.standardError.contains("not-found") || output.standardError.contains("only 3"), "\(output.standardError)")
        // Going to "near" moved it to the front: "far" is now second.
        #expect(try run("go", "--recent", "2").status == 0)

        // status, for people and as JSON.
        _ = try await daemon.waitForStatus(client, seconds: 5) { $0["state"] as? String == "guiding" }
        output = try run("status")
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("guiding"), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("far"), "\(output.standardOutput)")
        output = try run("status", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(json["class"] as? String == "STATUS")
        #expect(json.object("destination")?["name"] as? String == "far")

        // mute on and off, checked in the daemon.
        #expect(try run("mute", "on").status == 0)
        #expect(client.request(#"{"cmd":"status"}"#)?["muted"] as? Bool == true)
        #expect(try run("mute", "off").status == 0)
        #expect(client.request(#"{"cmd":"status"}"#)?["muted"] as? Bool == false)

        // buzz: the named pattern plays (after the "accepted" patterns still queued from go).
        #expect(try run("buzz", "gps-lost").status == 0)
        let buzzing = try await daemon.waitForStatus(client, seconds: 5) {
            $0.object("haptic")?["pattern"] as? String == "gps-lost"
        }
        #expect(buzzing != nil)
        #expect(try run("buzz", "loud").status == 64, "an unknown pattern is a usage error")

        // calibrate: start, status, finish refused (too few samples: exit 1), cancel, reset.
        output = try run("calibrate", "start")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("running"), "\(output.standardOutput)")
        output = try run("calibrate")
        #expect(output.status == 0 && output.standardOutput.contains("running"), "\(output.standardOutput)")
        output = try run("calibrate", "finish")
        #expect(output.status == 1, "\(output.standardOutput)")
        #expect(output.standardError.contains("too few samples") || output.standardError.contains("coverage"), "\(output.standardError)")
        output = try run("calibrate", "cancel")
        #expect(output.status == 0 && output.standardOutput.contains("stored"), "\(output.standardOutput)")
        output = try run("calibrate", "reset")
        #expect(output.status == 0 && output.standardOutput.contains("none"), "\(output.standardOutput)")
        #expect(client.request(#"{"cmd":"status"}"#)?["calibration"] as? String == "none")

        // watch without a terminal: plain lines, only what is new (5 updates a second, but the
        // numbers alone give a line at most every 5 s), until interrupted (exit 0).
        let watch = try ChildProcess(waypointctl, ["--socket", daemon.socket, "watch", "--hz", "5"])
        defer { watch.terminate() }
        let startedAt = ContinuousClock.now
        let updated = await watch.wait(timeout: .seconds(9)) { output, _ in output.count >= 2 }
        #expect(updated, "watch printed \(watch.output.map(\.text))")
        let watched = watch.output
        #expect(watched.count <= 3, "\(watched.map(\.text))")
        // The same state in both and no pattern starting or ending (which is printed at once):
        // a change of the numbers alone, which waits its 5 s.
        if watched.count >= 2, watched[1].text.split(separator: ";").first == watched[0].text.split(separator: ";").first,
            !watched.prefix(2).contains(where: { $0.text.contains("playing") })
        {
            #expect(
                watched[1].at - startedAt >= .seconds(4.5),
                "a line for changed numbers came \(watched[1].at - startedAt) after the first: \(watched.map(\.text))")
        }
        #expect(watch.output.allSatisfy { $0.text.contains("no-heading") || $0.text.contains("guiding") }, "\(watch.output.map(\.text))")
        kill(watch.processID, SIGINT)
        #expect(watch.waitForExit() == 0)

        // clear.
        #expect(try run("clear").status == 0)
        #expect(client.request(#"{"cmd":"status"}"#)?["state"] as? String == "idle")

        // The daemon gone: 69, naming the socket.
        #expect(daemon.stop() == 0)
        output = try run("status")
        #expect(output.status == 69)
        #expect(output.standardError.contains(daemon.socket), "\(output.standardError)")
    }
}
