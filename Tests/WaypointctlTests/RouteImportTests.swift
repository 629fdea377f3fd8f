import ClientSupport
import CommandLineSupport
import ControlProtocol
import Foundation
import GPX
import Geodesy
import Guidance
import TestSupport
import Testing

@testable import waypointctl
import TextFormats

/// `route load`'s reading of GPX files (real ones gpsbabel writes from a receiver's log, and
/// small hand-made ones for each rule) and the command line of routes, places, tracks and back.
@Suite("Routes, places and tracks from the command line", .timeLimit(.minutes(5)))
struct RouteImportTests {
    static func document(_ body: String) throws -> GPXDocument {
        try GPXReader.read(Array(#"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">\#(body)</gpx>"#.utf8))
    }

    @Test("a route wins over a track, a track over waypoints; an empty file says so; names are made printable")
    func choice() throws {
        let both = try Self.document(
            #"<wpt lat="1" lon="2"><name>W</name></wpt><rte><name>R</name><rtept lat="3" lon="4"><name>A&#x202E;&#x85;B</name></rtept><rtept lat="3.001" lon="4"/></rte>"#)
        let route = try RouteImport.route(from: both)
        #expect(route.name == "R" && route.source == #"route "R" 2 points"#)
        #expect(route.waypoints.map(\.name) == ["AB", nil])
        let walked = try RouteImport.route(from: Self.document(#"<wpt lat="1" lon="2"><name>W</name></wpt><trk><trkseg><trkpt lat="5" lon="6"/></trkseg></trk>"#))
        #expect(walked.source == "track 1 points, simplified to 1" && walked.waypoints == [DestinationReport(latitude: 5, longitude: 6)])
        let stops = try RouteImport.route(from: Self.document(#"<wpt lat="1" lon="2"><name>W</name></wpt><wpt lat="1.001" lon="2"/>"#))
        #expect(stops.source == "2 waypoints" && stops.waypoints.first == DestinationReport(latitude: 1, longitude: 2, name: "W"))
        #expect(throws: RouteImport.Failure.empty) { try RouteImport.route(from: Self.document("<trk><trkseg/></trk>")) }
        #expect(RouteImport.cleanName(String(repeating: "é", count: 150))?.count == PlaceName.maximumLength)
        #expect(RouteImport.cleanName("\u{202E}\u{7}") == nil)
        let many = try Self.document((0...1000).map { #"<wpt lat="\#(Double($0) / 1000)" lon="0"/>"# }.joined())
        #expect(throws: RouteImport.Failure.tooMany(1001)) { try RouteImport.route(from: many) }
    }

    @Test("a track gpsbabel writes from a receiver's log becomes waypoints ≥ 20 m apart, none more than 10 m off the track")
    func simplifiedTrack() throws {
        let gpsbabel = try ExternalTool.find("gpsbabel", hint: "apt install gpsbabel")
        let log = TestData.packageRoot.appendingPathComponent("Tests/GPSClientTests/Data/haicom-305N.log")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("track-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        let converted = try ExternalTool.run(gpsbabel, ["-i", "nmea", "-f", log.path, "-o", "gpx", "-F", file.path])
        try #require(converted.status == 0, "\(converted.standardError)")
        let document = try GPXReader.read(Array(try Data(contentsOf: file)))
        let track = try #require(document.tracks.first).segments.flatMap { $0 }
        let route = try RouteImport.route(from: document)
        #expect(route.waypoints.count < track.count && route.waypoints.count >= 2, "\(route.waypoints.count) of \(track.count)")
        #expect(route.source.hasPrefix("track ") && route.source.contains("\(track.count) points, simplified to \(route.waypoints.count)"))
        let coordinates = route.waypoints.map { Coordinate(uncheckedLatitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude) }
        #expect(coordinates.first == Coordinate(uncheckedLatitudeDegrees: track[0].latitudeDegrees, longitudeDegrees: track[0].longitudeDegrees))
        for (a, b) in zip(coordinates, coordinates.dropFirst().dropLast()) {
            #expect(Geodesic.wgs84.inverse(from: a, to: b).distanceMeters >= 19.9)
        }
        // Every original point lies within the tolerance (and a little for the spacing rule) of
        // the simplified line, measured with geodesics to the nearest waypoint pair's chord.
        for point in track {
            let here = Coordinate(uncheckedLatitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees)
            let nearest = coordinates.map { Geodesic.wgs84.inverse(from: here, to: $0).distanceMeters }.min() ?? .infinity
            let chord = zip(coordinates, coordinates.dropFirst()).map { Self.crossTrack(here, $0, $1) }.min() ?? .infinity
            #expect(min(nearest, chord) <= 30, "\(point) is \(min(nearest, chord)) m from the route")
        }
    }

    @Test(
        "real-world files become routes: the route of a route file, a recorded hike's track simplified",
        arguments: [("route.gpx", "route "), ("Mojstrovka.gpx", "track "), ("korita-zbevnica.gpx", "track "), ("unicode_with_bom.gpx", "")])
    func realWorld(name: String, source: String) throws {
        let file = TestData.packageRoot.appendingPathComponent("Tests/GPXTests/Data/gpxpy/\(name)")
        let route = try RouteImport.route(from: GPXReader.read(Array(try Data(contentsOf: file))))
        #expect(!route.waypoints.isEmpty && route.waypoints.count <= ControlRequest.maximumRouteWaypoints, "\(name)")
        #expect(route.source.hasPrefix(source), "\(name): \(route.source)")
        #expect(ControlRequest.route(.load(name: route.name, waypoints: route.waypoints)).line.count <= LineFramer.defaultMaximumLineLength)
    }

    /// The distance from `point` to the segment `a`–`b`, metres, on a local flat Earth.
    static func crossTrack(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let scale = (111_320 * cos(a.latitudeDegrees * .pi / 180), 110_574.0)
        func flat(_ c: Coordinate) -> (Double, Double) {
            ((c.longitudeDegrees - a.longitudeDegrees) * scale.0, (c.latitudeDegrees - a.latitudeDegrees) * scale.1)
        }
        let (p, q) = (flat(point), flat(b))
        let length = q.0 * q.0 + q.1 * q.1
        let t = length > 0 ? max(0, min(1, (p.0 * q.0 + p.1 * q.1) / length)) : 0
        let (dx, dy) = (p.0 - t * q.0, p.1 - t * q.1)
        return (dx * dx + dy * dy).squareRoot()
    }

    static func parse(_ line: String, now: Double = 1_782_950_400) throws(UsageError) -> DaemonCommand {
        let words = line.split(separator: " ").map(String.init)
        return try DaemonCommand.parse(name: words[0], words: Array(words.dropFirst()), now: now).command
    }

    static func message(_ line: String) -> String? {
        do throws(UsageError) {
            _ = try parse(line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the command line of route, place, track, back and go NAME, and its mistakes named")
    func commandLine() throws {
        #expect(try Self.parse("route") == .route(.show))
        #expect(try Self.parse("route load walk.gpx --name Loop") == .routeLoad(path: "walk.gpx", name: "Loop"))
        #expect(try Self.parse("route reverse") == .route(.reverse))
        #expect(Self.message("route sideways") == "route takes show, load FILE, next, previous, reverse or clear, not 'sideways'")
        #expect(Self.message("route next --name X") == "--name goes with route load")
        #expect(try Self.parse("place") == .place(.list))
        #expect(
            try Self.parse("place add Bakery 48.86,2.29 --radius 8")
                == .place(.add(DestinationReport(latitude: 48.86, longitude: 2.29, name: "Bakery", radiusMeters: 8), replacing: false)))
        #expect(try Self.parse("place mark Car --seconds 3 --replace") == .placeMark(name: "Car", seconds: 3, radiusMeters: nil, replacing: true))
        #expect(Self.message("place mark Car --radius 1") == "--radius '1' is not a distance from 2 to 1000 metres")
        #expect(Self.message("place mark Car --seconds 60") == "--seconds '60' is not from 1 to 30")
        #expect(Self.message("place rename Car") == "place rename needs the old name and the new one")
        #expect(Self.message("place list --radius 5") == "--radius and --replace go with place add and place mark")
        #expect(try Self.parse("go Bakery") == .goPlace("Bakery"))
        #expect(try Self.parse("go --place Gate") == .goPlace("Gate"))
        // Letters a coordinate uses keep the coordinate's own error.
        #expect(Self.message("go 48.8N 200E")?.hasPrefix("'48.8N 200E': ") == true)
        #expect(try Self.parse("track export --since 30m") == .trackExport(since: 1_782_950_400 - 1800, until: nil))
        #expect(
            try Self.parse("track export --since 2026-07-01T00:00:00Z --until 1h")
                == .trackExport(since: 1_782_950_400 - 86_400, until: 1_782_950_400 - 3600))
        // Issue 40: three hours ago is before two hours ago; this wrote an empty GPX and no word.
        #expect(Self.message("track export --since 2h --until 3h")?.hasPrefix("--until 3h is before --since 2h: nothing is in between") == true)
        #expect(Self.message("track export --since yesterday")?.hasPrefix("--since 'yesterday' is neither a UTC time") == true)
        #expect(try Self.parse("back --minutes 20") == .back(minutes: 20))
        #expect(Self.message("back --minutes 0") == "--minutes '0' is not from 1 to 1440")
    }
}
