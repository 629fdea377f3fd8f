import GPX
import Testing

@Suite("GPX: writing", .timeLimit(.minutes(5)))
struct GPXWriterTests {
    static let walk = GPXDocument(
        name: "Walk <1> & \"2\"",
        waypoints: [GPXPoint(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, name: "Eiffel")],
        routes: [GPXRoute(name: "R", points: [GPXPoint(latitudeDegrees: -33.8568, longitudeDegrees: 151.2153)])],
        tracks: [
            GPXTrack(
                name: "T",
                segments: [
                    [
                        GPXPoint(
                            latitudeDegrees: 1.123456789, longitudeDegrees: -0.000000001, elevationMeters: 35.25,
                            time: "2026-05-01T12:00:00Z", satellites: 8, horizontalDilution: 1.25)
                    ],
                    [GPXPoint(latitudeDegrees: 90, longitudeDegrees: -180)],
                ])
        ])

    @Test("GPX 1.1 in the schema's order, names escaped, numbers as plain decimals")
    func layout() {
        #expect(
            GPXWriter.text(Self.walk, creator: "waypointd test") == """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="waypointd test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
                  <metadata><name>Walk &lt;1&gt; &amp; &quot;2&quot;</name></metadata>
                  <wpt lat="48.8584" lon="2.2945"><name>Eiffel</name></wpt>
                  <rte>
                    <name>R</name>
                    <rtept lat="-33.8568" lon="151.2153"/>
                  </rte>
                  <trk>
                    <name>T</name>
                    <trkseg>
                      <trkpt lat="1.123456789" lon="-0.000000001"><ele>35.25</ele><time>2026-05-01T12:00:00Z</time><sat>8</sat><hdop>1.25</hdop></trkpt>
                    </trkseg>
                    <trkseg>
                      <trkpt lat="90" lon="-180"/>
                    </trkseg>
                  </trk>
                </gpx>

                """)
    }

    @Test("what it writes, it reads back the same")
    func roundTrip() throws {
        var read = try GPXReader.read(Array(GPXWriter.text(Self.walk, creator: "x").utf8))
        read.version = Self.walk.version
        #expect(read == Self.walk)
    }
}
