import Foundation
import Testing
import TestSupport

/// A route end to end (issue 19): a GPX file gpsbabel wrote, loaded by `waypointctl route load`
/// into `waypointd --simulate`, and the simulated wearer walking it, with a restart half-way.
/// The walk is simulated (no real walker reaches these tests), ``speed`` times faster than real
/// time; the GPX, the programs, the socket and the restart are real.
@Suite("Routes end to end", .serialized, .timeLimit(.minutes(10)))
struct RouteEndToEndTests {
    /// How much faster than real time the simulated walks run (`--simulate-speed`).
    static let speed = 5.0

    /// Five waypoints 25 m apart from where the simulated wearer starts, zigzagging north-east.
    static func routeCSV() -> String {
        let start = SimulatedDaemon.start
        let (dLat, dLon) = (25 / 111_200.0, 25 / 73_200.0)
        let steps = [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
        return "lat,lon,name\n"
            + steps.enumerated().map { index, step in
                "\(start.latitude + Double(step.0) * dLat),\(start.longitude + Double(step.1) * dLon),Stop \(index + 1)"
            }.joined(separator: "\n") + "\n"
    }

    @Test("a 5-waypoint GPX route: each waypoint reached once and in order, waypoint-reached 4 times, arrived once; a restart resumes at the same leg")
    func walkRoute() async throws {
        let gpsbabel = try ExternalTool.find("gpsbabel", hint: "apt install gpsbabel")
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon(speed: Self.speed)
        defer { _ = daemon.stop() }
        let directory = daemon.tree.root
        let csv = directory.appendingPathComponent("stops.csv").path
        let gpx = directory.appendingPathComponent("stops.gpx").path
        try Self.routeCSV().write(toFile: csv, atomically: true, encoding: .utf8)
        let written = try ExternalTool.run(gpsbabel, ["-i", "unicsv", "-f", csv, "-x", "transform,rte=wpt,del", "-o", "gpx", "-F", gpx])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(try String(contentsOfFile: gpx, encoding: .utf8).contains("<rtept"))

        let load = try ExternalTool.run(waypointctl, ["route", "load", gpx, "--name", "Five stops", "--socket", daemon.socket])
        #expect(load.status == 0, "\(load.standardOutput)\(load.standardError)")
        #expect(load.standardOutput.contains("route loaded\nroute: Five stops\nwaypoint: 1 of 5: Stop 1, "), "\(load.standardOutput)")
        #expect(load.standardError.contains("route 5 points"), "\(load.standardError)")

        var client = try ControlClient(path: daemon.socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        var waypoints: [Int] = []
        var patterns: [String] = []
        var restarted: ChildProcess?
        var reachedThird: ContinuousClock.Instant?
        defer { restarted?.terminate() }
        let deadline = ContinuousClock.now + .seconds(240)
        var finished = false
        while ContinuousClock.now < deadline, !finished {
            guard let status = client.request(#"{"cmd":"status"}"#) else { break }
            let route = status["route"] as? [String: Any]
            if let waypoint = route?["waypoint"] as? Int, waypoints.last != waypoint { waypoints.append(waypoint) }
            let pattern = (status["haptic"] as? [String: Any])?["pattern"] as? String
            if let pattern, patterns.last != pattern { patterns.append(pattern) }
            if pattern == nil, patterns.last != "-" { patterns.append("-") }
            finished = route?["finished"] as? Bool == true && status["state"] as? String == "arrived"
            if waypoints.last == 3, restarted == nil {
                // Half-way: stop the daemon and start it again on the same state, once the
                // pattern of reaching the second waypoint has been seen (the status that first
                // shows waypoint 3 may come just before the motor starts it).
                reachedThird = reachedThird ?? ContinuousClock.now
                if patterns.filter({ $0 == "waypoint-reached" }).count < 2, ContinuousClock.now - reachedThird! < .seconds(2) {
                    try await Task.sleep(for: .milliseconds(20))
                    continue
                }
                #expect(daemon.stop() == 0)
                let (process, newClient) = try await daemon.restart()
                restarted = process
                client = newClient
                let resumed = client.request(#"{"cmd":"status"}"#)
                #expect((resumed?["route"] as? [String: Any])?["waypoint"] as? Int == 3, "\(String(describing: resumed))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(finished, "waypoints \(waypoints), patterns \(patterns)\n\(daemon.log)")
        #expect(waypoints == [1, 2, 3, 4, 5], "\(waypoints)")
        #expect(patterns.filter { $0 == "waypoint-reached" }.count == 4, "\(patterns)")
        #expect(patterns.filter { $0 == "arrived" }.count == 1, "\(patterns)")

        let shown = try ExternalTool.run(waypointctl, ["route", "--socket", daemon.socket])
        #expect(shown.standardOutput.contains("waypoint: 5 of 5, finished: Stop 5"), "\(shown.standardOutput)")
        let cleared = try ExternalTool.run(waypointctl, ["route", "clear", "--socket", daemon.socket])
        #expect(cleared.standardOutput == "route cleared; guidance stopped\n", "\(cleared.standardOutput)")
    }

    @Test("route load refuses a file that is missing (66), hostile or not GPX (65), naming it; the daemon keeps its destination")
    func badFiles() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        defer { _ = daemon.stop() }
        let client = try ControlClient(path: daemon.socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let directory = daemon.tree.root
        let laughs = directory.appendingPathComponent("laughs.gpx").path
        try #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><gpx>&lol2;</gpx>"#
            .write(toFile: laughs, atomically: true, encoding: .utf8)
        let html = directory.appendingPathComponent("page.gpx").path
        try "<html><body>not a route</body></html>".write(toFile: html, atomically: true, encoding: .utf8)
        let missing = directory.appendingPathComponent("nowhere.gpx").path
        for (path, status, message) in [(missing, 66, "cannot read"), (laughs, 65, "DOCTYPE"), (html, 65, "html")] {
            let result = try ExternalTool.run(waypointctl, ["route", "load", path, "--socket", daemon.socket])
            #expect(result.status == Int32(status), "\(path): \(result.standardError)")
            #expect(result.standardError.contains(path) && result.standardError.contains(message), "\(result.standardError)")
        }
        let status = client.request(#"{"cmd":"status"}"#)
        #expect((status?["destination"] as? [String: Any])?["name"] as? String == "far")
        #expect(status?["route"] is NSNull, "\(String(describing: status))")
    }

    @Test("places from the command line: add, list, go by name in another case, a near miss suggested, mark where the wearer stands")
    func places() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        defer { _ = daemon.stop() }
        func ctl(_ words: String...) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, words + ["--socket", daemon.socket])
        }
        let add = try ctl("place", "add", "Bakery", "48.8560,2.2990", "--radius", "8")
        #expect(add.status == 0 && add.standardOutput.hasPrefix("place added: Bakery, 48°51'21.6\"N 2°17'56.4\"E (arrival within 8.0 m)"), "\(add.standardOutput)\(add.standardError)")
        let go = try ctl("go", "bakery")
        #expect(go.status == 0 && go.standardOutput.hasPrefix("destination set: Bakery, "), "\(go.standardOutput)\(go.standardError)")
        let miss = try ctl("go", "Bakrey")
        #expect(miss.status == 1 && miss.standardError.contains(#"did you mean "Bakery"?"#), "\(miss.standardError)")
        let mark = try ctl("place", "mark", "Start", "--seconds", "2")
        #expect(mark.status == 0, "\(mark.standardOutput)\(mark.standardError)")
        #expect(mark.standardError.contains("hold still: averaging 2 s of GPS fixes"), "\(mark.standardError)")
        #expect(mark.standardOutput.contains("place marked: Start, ") && mark.standardOutput.contains("error: within "), "\(mark.standardOutput)")
        let list = try ctl("place", "list")
        #expect(list.standardOutput.split(separator: "\n").map { $0.split(separator: ",").first.map(String.init) } == ["Bakery", "Start"], "\(list.standardOutput)")
        #expect(try ctl("place", "remove", "START").standardOutput == "place removed: START\n")
    }

    @Test("back: out along a walk, then back along the trail to the start; the trail exported as GPX gpxpy and gpsbabel read alike; SIGKILL loses at most the last minute")
    func backAndExport() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let gpsbabel = try ExternalTool.find("gpsbabel", hint: "apt install gpsbabel")
        let python = try ExternalTool.find("python3", hint: "apt install python3")
        let daemon = try await SimulatedDaemon(speed: Self.speed)
        defer { _ = daemon.stop() }
        func ctl(_ words: String...) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, words + ["--socket", daemon.socket])
        }
        #expect(try ctl("go", "48.8583", "2.2986", "--name", "far").status == 0)
        // Out for 65 s of the walk's time (about 60 m), past the trail's first write at 60 s.
        try await Task.sleep(for: .seconds(65 / Self.speed))
        let back = try ctl("back")
        #expect(back.status == 0, "\(back.standardOutput)\(back.standardError)")
        // A straight walk out is one waypoint back: the start.
        #expect(
            back.standardOutput.hasPrefix("guiding back along the trail\nroute: back\nwaypoint: 1 of 1: start of the trail, "),
            "\(back.standardOutput)")
        // A fresh connection: one quiet for 10 s is closed by the daemon.
        let client = try ControlClient(path: daemon.socket)
        #expect(client.receive()?["class"] as? String == "VERSION")
        let home = try await daemon.waitForStatus(client, seconds: 150) { status in
            (status["route"] as? [String: Any])?["finished"] as? Bool == true && status["state"] as? String == "arrived"
        }
        let fix = try #require(home?["fix"] as? [String: Any], "never back: \(daemon.log)")
        let (dLat, dLon) = (
            ((fix["lat"] as? Double ?? 0) - SimulatedDaemon.start.latitude) * 111_200,
            ((fix["lon"] as? Double ?? 0) - SimulatedDaemon.start.longitude) * 73_200
        )
        let eph = fix["eph"] as? Double ?? 0
        // Arrived means within max(15 m, 2·eph) of the trail's start by the fix; the fix may err by its eph.
        #expect((dLat * dLat + dLon * dLon).squareRoot() <= max(15, 2 * eph) + eph + 2, "\(fix)")

        let export = try ctl("track", "export")
        #expect(export.status == 0, "\(export.standardError)")
        let counted = export.standardError.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }
        let exported = try #require(counted, "\(export.standardError)")
        #expect(exported >= 20, "\(export.standardError)")
        let gpx = daemon.tree.root.appendingPathComponent("trail.gpx").path
        try export.standardOutput.write(toFile: gpx, atomically: true, encoding: .utf8)
        let byGpxpy = try ExternalTool.run(
            python, ["-c", "import sys, gpxpy; g = gpxpy.parse(open(sys.argv[1])); print(sum(len(s.points) for t in g.tracks for s in t.segments))", gpx])
        #expect(byGpxpy.standardOutput == "\(exported)\n", "\(byGpxpy.standardOutput)\(byGpxpy.standardError)")
        let csv = daemon.tree.root.appendingPathComponent("trail.csv").path
        let byGpsbabel = try ExternalTool.run(gpsbabel, ["-t", "-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", csv])
        // unicsv ends its lines in CRLF.
        let rows = (try? String(contentsOfFile: csv, encoding: .utf8))?.split(whereSeparator: \.isNewline).count ?? 0
        #expect(rows == exported + 1, "\(rows) rows; \(byGpsbabel.standardError)\n\(export.standardOutput.prefix(600))")

        // SIGKILL: what the file holds is at most a minute (of the daemon's time) behind its
        // latest fix.
        let latest = try #require(try daemon.client().request(#"{"cmd":"status"}"#)?.object("fix")?["time"] as? String)
        let killed = try #require(ISO8601DateFormatter.withFractions.date(from: latest)).timeIntervalSince1970
        kill(daemon.process.processID, SIGKILL)
        _ = daemon.process.waitForExit()
        let trail = try String(contentsOfFile: daemon.tree.root.appendingPathComponent("state/trail.log").path, encoding: .utf8)
        let lastTime = try #require(trail.split(separator: "\n").last?.split(separator: " ").dropFirst().first.flatMap { Double($0) })
        #expect(killed - lastTime <= 62, "the trail file ends \(killed - lastTime) s before the last fix")
    }
}

extension ISO8601DateFormatter {
    /// Reads `2026-07-02T10:00:00.000Z`, as the daemon writes fix times.
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

extension RouteEndToEndTests {
    @Test("track export of a 100 000-point trail: every point out, and the daemon's memory comes back after (issue 30, item 8)")
    func largeExportMemory() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        // 100 000 points, a second apart, split over the two files as rotation leaves them.
        func lines(_ range: Range<Int>) -> String {
            range.map { index in
                let north = 48.85 + Double(index) * 1e-6
                return "\(index == 0 ? "S" : "P") \(1_782_950_400 + index).000 \(String(format: "%.7f", north)) 2.2986000 35.0 4.0 1.0 9\n"
            }.joined()
        }
        let daemon = try await SimulatedDaemon(stateFiles: [
            "trail.1.log": lines(0..<50_000), "trail.log": lines(50_000..<100_000),
            ])
        defer { _ = daemon.stop() }
        try await Task.sleep(for: .seconds(1))
        let before = try #require(daemon.process.status("VmRSS"))
        let export = try ExternalTool.run(waypointctl, ["track", "export", "--socket", daemon.socket])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardError.contains("track: 100"), "\(export.standardError)")
        try await Task.sleep(for: .seconds(1))
        let after = try #require(daemon.process.status("VmRSS"))
        let peak = try #require(daemon.process.status("VmHWM"))
        #expect(after - before < 3 * 1024, "RSS \(before) kB before the export, \(after) kB after (peak \(peak) kB)")
        #expect(peak - before < 12 * 1024, "peak RSS \(peak) kB, \(before) kB before")
    }
}
