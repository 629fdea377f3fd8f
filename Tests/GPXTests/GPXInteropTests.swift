import Foundation
import GPX
import Testing
import TestSupport

/// GPX against tools we did not write (issue 19): files gpsbabel and gpxpy wrote are read with
/// the points they hold, and what we write is read by both with the same points.
@Suite("GPX: gpsbabel and gpxpy", .timeLimit(.minutes(5)))
struct GPXInteropTests {
    /// gpxpy's reading of a file, as JSON: waypoints, routes and track segments as
    /// `[lat, lon, ele, time, name]` lists.
    static let gpxpyDump = """
        import json, sys, gpxpy
        g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
        p = lambda q: [q.latitude, q.longitude, q.elevation, q.time.isoformat() if q.time else None, q.name]
        print(json.dumps({"wpt": [p(w) for w in g.waypoints],
                          "rte": [[p(q) for q in r.points] for r in g.routes],
                          "trk": [[[p(q) for q in s.points] for s in t.segments] for t in g.tracks]}))
        """

    struct Tools {
        let gpsbabel: URL
        let python: URL
    }

    static func tools() throws -> Tools {
        let gpsbabel = try ExternalTool.find("gpsbabel", hint: "apt-get install gpsbabel")
        let python = try ExternalTool.find("python3", hint: "apt-get install python3")
        let probe = try ExternalTool.run(python, ["-c", "import gpxpy"])
        if probe.status != 0 { try skip("gpxpy is missing (make deps installs it from PyPI)") }
        return Tools(gpsbabel: gpsbabel, python: python)
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpx-\(getpid())-\(UUID().uuidString)-\(name)")
    }

    /// gpxpy's points, flattened in file order: waypoints, route points, track points.
    static func gpxpyPoints(_ tools: Tools, _ file: URL) throws -> (counts: [Int], points: [[Any]]) {
        let output = try ExternalTool.run(tools.python, ["-c", gpxpyDump, file.path])
        try #require(output.status == 0, "\(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let waypoints = object["wpt"] as? [[Any]] ?? []
        let routes = (object["rte"] as? [[[Any]]] ?? []).flatMap { $0 }
        let tracks = (object["trk"] as? [[[[Any]]]] ?? []).flatMap { $0.flatMap { $0 } }
        return ([waypoints.count, routes.count, tracks.count], waypoints + routes + tracks)
    }

    static func ourPoints(_ document: GPXDocument) -> (counts: [Int], points: [GPXPoint]) {
        let routes = document.routes.flatMap(\.points)
        let tracks = document.tracks.flatMap { $0.segments.flatMap { $0 } }
        return ([document.waypoints.count, routes.count, tracks.count], document.waypoints + routes + tracks)
    }

    /// Each point the same place to 1e-7°, elevation to 1 mm.
    static func expectSame(_ ours: [GPXPoint], _ theirs: [[Any]], _ context: String) {
        #expect(ours.count == theirs.count, "\(context)")
        for (point, other) in zip(ours, theirs) {
            #expect(abs(point.latitudeDegrees - (other[0] as? Double ?? .nan)) <= 1e-7, "\(context): \(point) vs \(other)")
            #expect(abs(point.longitudeDegrees - (other[1] as? Double ?? .nan)) <= 1e-7, "\(context): \(point) vs \(other)")
            if let elevation = other[2] as? Double {
                #expect(abs((point.elevationMeters ?? .nan) - elevation) <= 1e-3, "\(context): \(point) vs \(other)")
            }
        }
    }

    @Test(
        "files gpsbabel writes from a receiver's NMEA log: tracks, routes and waypoints, GPX 1.1 and 1.0",
        arguments: [
            ["-o", "gpx"], ["-o", "gpx,gpxver=1.0"], ["-x", "transform,rte=trk,del", "-o", "gpx"],
            ["-x", "transform,wpt=trk,del", "-o", "gpx,gpxver=1.0"],
        ])
    func fromGPSBabel(options: [String]) throws {
        let tools = try Self.tools()
        let log = TestData.packageRoot.appendingPathComponent("Tests/GPSClientTests/Data/haicom-305N.log")
        let file = Self.temporaryFile("babel.gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        let converted = try ExternalTool.run(tools.gpsbabel, ["-i", "nmea", "-f", log.path] + options + ["-F", file.path])
        try #require(converted.status == 0, "\(converted.standardError)")
        let document = try GPXReader.read(Array(try Data(contentsOf: file)))
        let (counts, points) = Self.ourPoints(document)
        let oracle = try Self.gpxpyPoints(tools, file)
        #expect(counts == oracle.counts, "\(options)")
        #expect(counts.reduce(0, +) > 10, "\(counts)")
        Self.expectSame(points, oracle.points, "\(options)")
        // Times as written, as gpxpy reads them.
        for (point, other) in zip(points, oracle.points) where other[3] is String {
            #expect(point.time != nil, "\(options): \(point)")
        }
    }

    @Test("a file gpxpy writes: waypoints, a 5-point route and a track of two segments, with names, elevations, times")
    func fromGPXPy() throws {
        let tools = try Self.tools()
        let file = Self.temporaryFile("gpxpy.gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import sys, datetime, gpxpy.gpx
            g = gpxpy.gpx.GPX()
            g.waypoints.append(gpxpy.gpx.GPXWaypoint(48.8584, 2.2945, elevation=35.5, name="Tour Eiffel & <co>"))
            g.waypoints.append(gpxpy.gpx.GPXWaypoint(-33.8568, 151.2153, name="Opéra"))
            r = gpxpy.gpx.GPXRoute(name="Loop")
            for i in range(5): r.points.append(gpxpy.gpx.GPXRoutePoint(48.85 + i * 0.001, 2.29 - i * 0.001, name="leg %d" % i))
            g.routes.append(r)
            t = gpxpy.gpx.GPXTrack(name="Morning")
            for s in range(2):
                seg = gpxpy.gpx.GPXTrackSegment()
                for i in range(3):
                    when = datetime.datetime(2026, 5, 1, 12, s, i, tzinfo=datetime.timezone.utc)
                    seg.points.append(gpxpy.gpx.GPXTrackPoint(-22.95 - i * 1e-4, -43.21 + s * 1e-3, elevation=700 + i, time=when))
                t.segments.append(seg)
            g.tracks.append(t)
            open(sys.argv[1], "w", encoding="utf-8").write(g.to_xml())
            """
        let written = try ExternalTool.run(tools.python, ["-c", script, file.path])
        try #require(written.status == 0, "\(written.standardError)")
        let document = try GPXReader.read(Array(try Data(contentsOf: file)))
        #expect(document.waypoints.map(\.name) == ["Tour Eiffel & <co>", "Opéra"])
        #expect(document.routes.first?.name == "Loop")
        #expect(document.routes.first?.points.map(\.name) == (0..<5).map { "leg \($0)" })
        #expect(document.tracks.first?.segments.map(\.count) == [3, 3])
        #expect(document.tracks.first?.segments.last?.first?.time?.hasPrefix("2026-05-01T12:01:00") == true)
        let oracle = try Self.gpxpyPoints(tools, file)
        let (counts, points) = Self.ourPoints(document)
        #expect(counts == oracle.counts)
        Self.expectSame(points, oracle.points, "gpxpy")
    }

    @Test("what we write: gpxpy and gpsbabel read the same points, times and names")
    func toBoth() throws {
        let tools = try Self.tools()
        var generator = SeededGenerator(seed: 19)
        var segments: [[GPXPoint]] = []
        for segment in 0..<3 {
            segments.append(
                (0..<50).map { index in
                    GPXPoint(
                        latitudeDegrees: Double.random(in: -89.9...89.9, using: &generator),
                        longitudeDegrees: Double.random(in: -179.9...179.9, using: &generator),
                        elevationMeters: Double.random(in: -100...4000, using: &generator),
                        time: "2026-05-01T12:\(segment + 10):\(index < 10 ? "0" : "")\(index)Z", satellites: index % 12,
                        horizontalDilution: 0.9)
                })
        }
        let document = GPXDocument(
            waypoints: [GPXPoint(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, name: "Eiffel & <co> \"x\"")],
            routes: [GPXRoute(name: "R", points: segments[0].prefix(5).map { GPXPoint(latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees) })],
            tracks: [GPXTrack(name: "Trail", segments: segments)])
        let file = Self.temporaryFile("ours.gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        try GPXWriter.text(document, creator: "waypointd test").write(to: file, atomically: true, encoding: .utf8)

        let oracle = try Self.gpxpyPoints(tools, file)
        let (counts, points) = Self.ourPoints(document)
        #expect(oracle.counts == counts)
        Self.expectSame(points, oracle.points, "gpxpy")
        #expect((oracle.points[0][4] as? String) == "Eiffel & <co> \"x\"")
        for (point, other) in zip(points, oracle.points) where point.time != nil {
            #expect((other[3] as? String)?.hasPrefix(String(point.time!.dropLast())) == true, "\(point) vs \(other)")
        }

        let back = Self.temporaryFile("babel-back.gpx")
        defer { try? FileManager.default.removeItem(at: back) }
        let converted = try ExternalTool.run(tools.gpsbabel, ["-i", "gpx", "-f", file.path, "-o", "gpx", "-F", back.path])
        try #require(converted.status == 0, "\(converted.standardError)")
        let reread = try GPXReader.read(Array(try Data(contentsOf: back)))
        let (babelCounts, babelPoints) = Self.ourPoints(reread)
        #expect(babelCounts == counts)
        for (point, other) in zip(points, babelPoints) {
            #expect(abs(point.latitudeDegrees - other.latitudeDegrees) <= 1e-7 && abs(point.longitudeDegrees - other.longitudeDegrees) <= 1e-7)
            #expect(point.time == other.time, "\(point) vs \(other)")
        }
    }

    /// Real-world files (gpxpy's test files, Apache 2.0; see Data/gpxpy/README.md).
    static let realFiles = [
        "Mojstrovka.gpx", "korita-zbevnica.gpx", "route.gpx", "gpx1.0_with_all_fields.gpx", "unicode_with_bom.gpx",
        "track-with-empty-segment.gpx",
    ]

    @Test("real-world files (recorded hikes, a route, a BOM, an empty segment) read with the points gpxpy reads", arguments: realFiles)
    func realWorld(name: String) throws {
        let tools = try Self.tools()
        let file = TestData.packageRoot.appendingPathComponent("Tests/GPXTests/Data/gpxpy/\(name)")
        let document = try GPXReader.read(Array(try Data(contentsOf: file)))
        let (counts, points) = Self.ourPoints(document)
        let oracle = try Self.gpxpyPoints(tools, file)
        #expect(counts == oracle.counts, "\(name)")
        #expect(counts.reduce(0, +) > 0, "\(name): \(counts)")
        Self.expectSame(points, oracle.points, name)
    }
}
