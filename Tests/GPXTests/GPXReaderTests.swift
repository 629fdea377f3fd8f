import GPX
import Testing

/// GPX read with expat (issue 19): the three kinds of point list, both versions, and every
/// hostile file refused with an error naming what and where.
@Suite("GPX: reading", .timeLimit(.minutes(5)))
struct GPXReaderTests {
    static func read(_ text: String, limits: GPXReader.Limits = GPXReader.Limits()) throws(GPXError) -> GPXDocument {
        try GPXReader.read(Array(text.utf8), limits: limits)
    }

    @Test("GPX 1.1: metadata name, waypoints, a route and a track in segments, with ele, time, name, sat and hdop")
    func version11() throws {
        let document = try Self.read(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:x="urn:other">
              <metadata><name> Walk </name><link href="http://example.org"><text>ignored</text></link></metadata>
              <wpt lat="48.8584" lon="2.2945"><ele>35.5</ele><name>Eiffel &amp; co</name><extensions><x:name>no</x:name></extensions></wpt>
              <rte><name>Loop</name>
                <rtept lat="-33.8568" lon="151.2153"><name>Opera</name></rtept>
                <rtept lat="+40.6892" lon="-74.0445"/>
              </rte>
              <trk><name>Morning</name>
                <trkseg><trkpt lat="1.5" lon="2"><ele>-3</ele><time>2026-05-01T12:00:00Z</time><sat>7</sat><hdop>0.9</hdop></trkpt></trkseg>
                <trkseg><trkpt lat=" 1.6 " lon="2.0"/><trkpt lat="1.7" lon="2.1"/></trkseg>
              </trk>
            </gpx>
            """)
        #expect(document.version == "1.1")
        #expect(document.name == "Walk")
        #expect(document.waypoints == [GPXPoint(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, elevationMeters: 35.5, name: "Eiffel & co")])
        #expect(document.routes == [GPXRoute(name: "Loop", points: [
            GPXPoint(latitudeDegrees: -33.8568, longitudeDegrees: 151.2153, name: "Opera"),
            GPXPoint(latitudeDegrees: 40.6892, longitudeDegrees: -74.0445),
        ])])
        #expect(document.tracks.count == 1)
        #expect(document.tracks[0].name == "Morning")
        #expect(document.tracks[0].segments.map(\.count) == [1, 2])
        #expect(document.tracks[0].segments[0][0] == GPXPoint(
            latitudeDegrees: 1.5, longitudeDegrees: 2, elevationMeters: -3, time: "2026-05-01T12:00:00Z", satellites: 7,
            horizontalDilution: 0.9))
        #expect(document.pointCount == 6)
    }

    @Test("GPX 1.0 and a file with no namespace at all read alike")
    func otherVersions() throws {
        let old = try Self.read(
            #"<gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0"><name>Old</name><wpt lat="1" lon="2"><name>a</name></wpt></gpx>"#)
        #expect(old.version == "1.0")
        #expect(old.name == "Old")
        #expect(old.waypoints.map(\.name) == ["a"])
        let bare = try Self.read(#"<gpx version="1.1"><rte><rtept lat="1" lon="2"/></rte></gpx>"#)
        #expect(bare.routes.first?.points.count == 1)
    }

    @Test(
        "hostile and broken files: a clear error with its place, never a hang or a crash",
        arguments: [
            (
                #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><gpx>&lol2;</gpx>"#,
                "document type declaration"
            ),
            (#"<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "file:///etc/passwd"><gpx/>"#, "document type declaration"),
            (#"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]><gpx><wpt lat="1" lon="2"><name>&x;</name></wpt></gpx>"#, "document type declaration"),
            (#"<kml xmlns="http://www.opengis.net/kml/2.2"/>"#, "not a GPX file: the root element at line 1, column 1 is <kml>"),
            (#"<gpx xmlns="urn:not-gpx"/>"#, "not a GPX file"),
            ("", "not well-formed XML at line 1, column 1: no element found"),
            ("not xml at all", "not well-formed XML at line 1, column 1"),
            (#"<gpx><wpt lat="1" lon="2"></gpx>"#, "not well-formed XML at line 1"),
            (#"<gpx><wpt lon="2"/></gpx>"#, "<wpt> at line 1, column 6 has no lat"),
            (#"<gpx><rte><rtept lat="1"/></rte></gpx>"#, "<rtept> at line 1, column 11 has no lon"),
            (#"<gpx><wpt lat="91" lon="2"/></gpx>"#, "'91' is out of range for lat"),
            (#"<gpx><wpt lat="1" lon="-180.5"/></gpx>"#, "'-180.5' is out of range for lon"),
            (#"<gpx><wpt lat="NaN" lon="2"/></gpx>"#, "'NaN' is not a decimal number"),
            (#"<gpx><wpt lat="1e2" lon="2"/></gpx>"#, "'1e2' is not a decimal number"),
            (#"<gpx><wpt lat="0x10" lon="2"/></gpx>"#, "'0x10' is not a decimal number"),
            (#"<gpx><wpt lat="" lon="2"/></gpx>"#, "'' is not a decimal number"),
            (#"<gpx><wpt lat="1" lon="2"><ele>high</ele></wpt></gpx>"#, "<ele> at line 1"),
            (#"<gpx><wpt lat="1" lon="2"><sat>-1</sat></wpt></gpx>"#, "is not a whole number"),
        ])
    func refused(text: String, message: String) {
        do {
            let document = try Self.read(text)
            Issue.record("read: \(document)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("invalid UTF-8 is refused with its line and column")
    func invalidUTF8() {
        var bytes = Array(#"<gpx><wpt lat="1" lon="2"><name>ab"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</name></wpt></gpx>".utf8)
        #expect(throws: GPXError.notXML(reason: "not well-formed (invalid token)", at: .init(line: 1, column: 35))) {
            try GPXReader.read(bytes)
        }
    }

    @Test("limits, with inputs far past them: 10^4 nested elements, 10^6 points, 100 MB, a name of 1 MB")
    func limits() {
        let nested = "<gpx>" + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000) + "</gpx>"
        #expect(throws: GPXError.tooDeep(limit: 64, at: .init(line: 1, column: 6 + 63 * 3))) { try Self.read(nested) }

        var many = Array("<gpx><trk><trkseg>".utf8)
        let point = Array(#"<trkpt lat="1" lon="2"/>"#.utf8)
        many.reserveCapacity(many.count + point.count * 1_000_000)
        for _ in 0..<1_000_000 { many += point }
        many += Array("</trkseg></trk></gpx>".utf8)
        #expect(many.count < GPXReader.Limits().maximumBytes, "within the size limit: the point limit is what stops it")
        #expect(throws: GPXError.tooManyPoints(limit: 100_000, at: .init(line: 1, column: 19 + 100_000 * point.count))) {
            try GPXReader.read(many)
        }

        let huge = [UInt8](repeating: 0x20, count: 100_000_000)
        #expect(throws: GPXError.tooLarge(bytes: 100_000_000, limit: 32 << 20)) { try GPXReader.read(huge) }

        let longName = #"<gpx><wpt lat="1" lon="2"><name>"# + String(repeating: "n", count: 1 << 20) + "</name></wpt></gpx>"
        do {
            _ = try Self.read(longName)
            Issue.record("a 1 MB name was read")
        } catch {
            guard case .textTooLong(element: "name", limit: 4096, at: _) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test("text outside the kept elements is not collected: a 10 MB description reads fine")
    func ignoredText() throws {
        let text = #"<gpx><wpt lat="1" lon="2"><desc>"# + String(repeating: "d", count: 10 << 20) + "</desc><name>x</name></wpt></gpx>"
        #expect(try Self.read(text).waypoints.first?.name == "x")
    }
}
