import ControlProtocol
import Geodesy
@testable import LocationIntake
import Testing
import TextFormats

/// Every form a phone shares, one table per service. The links are written from each
/// service's documented URL scheme (Google's "Maps URLs", Apple's "Map Links", the OpenStreetMap
/// wiki's "Browsing", OsmAnd's and Waze's deep-link pages, Bing's "Create a custom map URL") or
/// are the shape its app's Share button gives; the expected coordinates are the ones written in
/// each link, and the plus codes' centres come from the reference implementation (PyPI
/// `openlocationcode` 1.0.1), not from our decoder.
@Suite("Locations from what phones share", .timeLimit(.minutes(5)))
struct LocationParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var latitude: Double
        var longitude: Double
        var source: LocationSource
        var name: String? = nil
        var precisionMeters: Double? = nil
        var testDescription: String { String(text.prefix(70)) }
    }

    static func check(_ row: Case, near reference: Coordinate? = nil) throws {
        let location = try LocationParser.parse(row.text, near: reference)
        #expect(abs(location.coordinate.latitudeDegrees - row.latitude) < 1e-9, "\(location)")
        #expect(abs(location.coordinate.longitudeDegrees - row.longitude) < 1e-9, "\(location)")
        #expect(location.source == row.source)
        #expect(location.name == row.name)
        if let precision = row.precisionMeters {
            #expect(abs((location.precisionMeters ?? -1) - precision) < 0.5, "\(location)")
        } else {
            #expect(location.precisionMeters == nil)
        }
    }

    static let google: [Case] = [
        // A place shared from the app: the !3d!4d pin wins over the @ camera.
        .init(
            text: "https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2919064,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813!16zL20vMDJqODE",
            latitude: 48.8583701, longitude: 2.2944813, source: .googleMaps, name: "Eiffel Tower"),
        // Percent-escapes in the name; another country's host.
        .init(
            text: "https://www.google.de/maps/place/Caf%C3%A9+de+Flore/@48.8541,2.3326,18z/data=!4m2!3m1!1s0x0:0x0!8m2!3d48.854167!4d2.332500",
            latitude: 48.854167, longitude: 2.3325, source: .googleMaps, name: "Café de Flore"),
        // A dropped pin: its place segment is the coordinate in DMS, and the pin agrees.
        .init(
            text: "https://www.google.com/maps/place/48%C2%B051'30.2%22N+2%C2%B017'40.1%22E/@48.858389,2.2919,17z/data=!3m1!4b1!4m4!3m3!8m2!3d48.858389!4d2.294475",
            latitude: 48.858389, longitude: 2.294475, source: .googleMaps),
        .init(text: "https://www.google.com/maps/@48.8583701,2.2919064,17z", latitude: 48.8583701, longitude: 2.2919064, source: .googleMaps),
        .init(text: "https://www.google.co.uk/maps/@51.5007,-0.1246,15z", latitude: 51.5007, longitude: -0.1246, source: .googleMaps),
        .init(text: "https://www.google.com/maps/place/48.8584,2.2945", latitude: 48.8584, longitude: 2.2945, source: .googleMaps),
        .init(text: "https://maps.google.com/?q=48.8584,2.2945", latitude: 48.8584, longitude: 2.2945, source: .googleMaps),
        .init(text: "https://maps.google.com/maps?q=loc:48.8584,2.2945", latitude: 48.8584, longitude: 2.2945, source: .googleMaps),
        .init(
            text: "https://maps.google.com/maps?q=-33.8568,151.2153+(Sydney+Opera+House)", latitude: -33.8568,
            longitude: 151.2153, source: .googleMaps, name: "Sydney Opera House"),
        .init(text: "https://maps.google.com/?ll=48.8584,2.2945&z=17", latitude: 48.8584, longitude: 2.2945, source: .googleMaps),
        .init(
            text: "https://www.google.com/maps/search/?api=1&query=48.8584%2C2.2945", latitude: 48.8584, longitude: 2.2945,
            source: .googleMaps),
        .init(
            text: "https://www.google.com/maps/dir/?api=1&destination=48.8584,2.2945&travelmode=walking", latitude: 48.8584,
            longitude: 2.2945, source: .googleMaps),
        .init(
            text: "https://www.google.com/maps/dir/48.8530,2.3499/48.8584,2.2945/@48.85,2.32,14z", latitude: 48.8584,
            longitude: 2.2945, source: .googleMaps),
        // A plus code in the place segment, `+` escaped as Google writes it.
        .init(
            text: "https://www.google.com/maps/place/8FW4V75V%2B8Q", latitude: 48.8583125, longitude: 2.2944375, source: .plusCode,
            precisionMeters: 13.9),
    ]

    @Test("Google Maps links", arguments: google)
    func googleLinks(_ row: Case) throws { try Self.check(row) }

    static let apple: [Case] = [
        .init(
            text: "https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower&t=m", latitude: 48.85837, longitude: 2.294481,
            source: .appleMaps, name: "Eiffel Tower"),
        .init(
            text: "https://maps.apple.com/?address=Champ+de+Mars,+5+Avenue+Anatole+France,+75007+Paris,+France&auid=9902154553127016510&ll=48.858370,2.294481&lsp=9902&q=Tour%20Eiffel",
            latitude: 48.85837, longitude: 2.294481, source: .appleMaps, name: "Tour Eiffel"),
        .init(text: "https://maps.apple.com/?daddr=48.8584,2.2945&dirflg=w", latitude: 48.8584, longitude: 2.2945, source: .appleMaps),
        .init(text: "https://maps.apple.com/?sll=48.8584,2.2945&z=10&t=s", latitude: 48.8584, longitude: 2.2945, source: .appleMaps),
        .init(
            text: "https://maps.apple.com/place?coordinate=48.858370,2.294481&name=Eiffel%20Tower", latitude: 48.85837,
            longitude: 2.294481, source: .appleMaps, name: "Eiffel Tower"),
    ]

    @Test("Apple Maps links", arguments: apple)
    func appleLinks(_ row: Case) throws { try Self.check(row) }

    static let others: [Case] = [
        // OpenStreetMap: the marker wins over the map's position.
        .init(
            text: "https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=17/48.85837/2.29448", latitude: 48.85837,
            longitude: 2.29448, source: .openStreetMap),
        .init(
            text: "https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=12/48.9/2.4", latitude: 48.85837, longitude: 2.29448,
            source: .openStreetMap),
        .init(
            text: "https://www.openstreetmap.org/#map=17/48.85837/2.29448", latitude: 48.85837, longitude: 2.29448,
            source: .openStreetMap),
        .init(
            text: "https://www.openstreetmap.org/directions?engine=fossgis_osrm_foot&route=48.8530%2C2.3499%3B48.8584%2C2.2945",
            latitude: 48.8584, longitude: 2.2945, source: .openStreetMap),
        .init(text: "https://osmand.net/go?lat=48.85837&lon=2.29448&z=16", latitude: 48.85837, longitude: 2.29448, source: .osmAnd),
        .init(
            text: "https://osmand.net/map?pin=48.85837,2.29448#16/48.86/2.30", latitude: 48.85837, longitude: 2.29448, source: .osmAnd),
        .init(text: "https://waze.com/ul?ll=48.85837,2.29448&navigate=yes", latitude: 48.85837, longitude: 2.29448, source: .waze),
        .init(
            text: "https://www.waze.com/live-map/directions?to=ll.48.85837%2C2.29448", latitude: 48.85837, longitude: 2.29448,
            source: .waze),
        .init(text: "https://www.bing.com/maps?cp=48.85837~2.29448&lvl=17", latitude: 48.85837, longitude: 2.29448, source: .bing),
        .init(
            text: "https://www.bing.com/maps?sp=point.48.85837_2.29448_Eiffel%20Tower&cp=48.85~2.29&lvl=15", latitude: 48.85837,
            longitude: 2.29448, source: .bing, name: "Eiffel Tower"),
    ]

    @Test("OpenStreetMap, OsmAnd, Waze and Bing Maps links", arguments: others)
    func otherLinks(_ row: Case) throws { try Self.check(row) }

    static let geo: [Case] = [
        .init(text: "geo:48.8584,2.2945", latitude: 48.8584, longitude: 2.2945, source: .geoURI),
        .init(text: "geo:48.8584,2.2945,35;crs=wgs84;u=12", latitude: 48.8584, longitude: 2.2945, source: .geoURI, precisionMeters: 12),
        .init(text: "GEO:48.8584,2.2945?z=17", latitude: 48.8584, longitude: 2.2945, source: .geoURI),
        .init(
            text: "geo:0,0?q=48.8584,2.2945(Eiffel%20Tower)", latitude: 48.8584, longitude: 2.2945, source: .geoURI,
            name: "Eiffel Tower"),
        // Typed by hand, with spaces in the label; Organic Maps' shape, path and query alike.
        .init(text: "geo:0,0?q=48.8584,2.2945(Tour Eiffel)", latitude: 48.8584, longitude: 2.2945, source: .geoURI, name: "Tour Eiffel"),
        .init(
            text: "geo:48.85,2.29?z=15&q=48.8584,2.2945(Eiffel+Tower)", latitude: 48.8584, longitude: 2.2945, source: .geoURI,
            name: "Eiffel Tower"),
    ]

    @Test("geo: URIs, RFC 5870 and Android's", arguments: geo)
    func geoURIs(_ row: Case) throws { try Self.check(row) }

    static let plusCodes: [Case] = [
        .init(text: "8FW4V75V+8Q", latitude: 48.8583125, longitude: 2.2944375, source: .plusCode, precisionMeters: 13.9),
        .init(text: "8fw4v75v+8q", latitude: 48.8583125, longitude: 2.2944375, source: .plusCode, precisionMeters: 13.9),
        .init(text: "8FW4V75V+8Q9", latitude: 48.8582875, longitude: 2.294484375, source: .plusCode, precisionMeters: 2.8),
        .init(text: "8FW40000+", latitude: 48.5, longitude: 2.5, source: .plusCode, precisionMeters: 111_195),
        .init(text: "9C3XGV4C+XV London", latitude: 51.5074375, longitude: -0.1278125, source: .plusCode, precisionMeters: 13.9),
    ]

    @Test("full plus codes, any case and length", arguments: plusCodes)
    func fullPlusCodes(_ row: Case) throws { try Self.check(row) }

    @Test("a short plus code is completed near the reference, and refused without one")
    func shortPlusCodes() throws {
        let paris = try Coordinate(latitudeDegrees: 48.86, longitudeDegrees: 2.35)
        let location = try LocationParser.parse("V75V+8Q Paris, France", near: paris)
        #expect(location.source == .shortPlusCode)
        #expect(location.completion == Location.Completion(fullCode: "8FW4V75V+8Q", near: paris))
        #expect(abs(location.coordinate.latitudeDegrees - 48.8583125) < 1e-9)
        #expect(abs(location.coordinate.longitudeDegrees - 2.2944375) < 1e-9)
        let london = try LocationParser.parse("GV4C+XV", near: try Coordinate(latitudeDegrees: 51.5, longitudeDegrees: -0.12))
        #expect(london.completion?.fullCode == "9C3XGV4C+XV")
        #expect(throws: LocationError.needsReference(code: "V75V+8Q")) { try LocationParser.parse("v75v+8q") }
        #expect("\(LocationError.needsReference(code: "V75V+8Q"))".contains("--near"))
    }

    @Test("a link inside a longer text, with the punctuation of the sentence around it")
    func linkInText() throws {
        let texts = [
            "Meet me here: https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower thanks",
            "Meet me here (https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower).",
            "Eiffel Tower\nhttps://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower\n",
            "“https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower”, see you!",
            // A short link beside one that can be read: the readable one.
            "https://maps.app.goo.gl/Xyz12 or https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower",
            // The same place twice.
            "https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower geo:48.8584,2.2945",
        ]
        for text in texts {
            let location = try LocationParser.parse(text)
            #expect(location.coordinate == (try Coordinate(latitudeDegrees: 48.85837, longitudeDegrees: 2.294481)), "\(text)")
            #expect(location.name == "Eiffel Tower", "\(text)")
        }
        let wiki = try LocationParser.parse("(see https://en.wikipedia.org/wiki/Foo_(bar)) geo:1,2")
        #expect(wiki.source == .geoURI)
    }

    @Test("typed coordinates read as before")
    func typed() throws {
        let location = try LocationParser.parse("  48°51'30.2\"N 2°17'40.2\"E ")
        #expect(location.source == .coordinates)
        #expect(location.name == nil && location.precisionMeters == nil)
        #expect(location.coordinate == (try Coordinate(parsing: "48°51'30.2\"N 2°17'40.2\"E")))
    }

    /// Issue 40: `go "PCQH+F8 Monaco"` ignored "Monaco" and completed the code near the wearer.
    @Test("a short plus code, then the town it is in: both found, for the town to complete it")
    func shortCodeAndTown() {
        #expect(LocationParser.shortCodeAndLocality("PCQH+F8 Monaco").map { [$0.code, $0.locality] } == ["PCQH+F8", "Monaco"])
        #expect(LocationParser.shortCodeAndLocality("pcqh+f8, Monte-Carlo, Monaco").map { [$0.code, $0.locality] } == ["pcqh+f8", "Monte-Carlo Monaco"])
        #expect(LocationParser.shortCodeAndLocality("8FM9PCQH+F8 Monaco") == nil, "a full code needs no town")
        #expect(LocationParser.shortCodeAndLocality("PCQH+F8") == nil)
        #expect(LocationParser.shortCodeAndLocality("Meet at PCQH+F8") == nil)
        #expect(LocationParser.shortCodeAndLocality("PCQH+F8 43.7 7.4") == nil)
        #expect(LocationParser.shortCodeAndLocality("PCQH+F8 " + String(repeating: "a", count: 101)) == nil)
    }

    /// Issue 40: a Google link to a short code, with its own map centre in Monaco, was completed
    /// near the wearer in Paris. The full code from the reference implementation (PyPI
    /// openlocationcode, recoverNearest near Monaco).
    @Test("a short plus code in a link is completed near the link's own map centre")
    func shortCodeInALink() throws {
        let paris = Coordinate(uncheckedLatitudeDegrees: 48.8566, longitudeDegrees: 2.3522)
        let location = try LocationParser.parse("https://www.google.com/maps/place/PCQH%2BF8+Monaco/@43.7386,7.4283,17z", near: paris)
        #expect(location.completion?.fullCode == "8FM9PCQH+F8")
        #expect(abs(location.coordinate.latitudeDegrees - 43.7386875) < 1e-6 && abs(location.coordinate.longitudeDegrees - 7.4283125) < 1e-6)
    }

    /// Issue 40: "a Apple Maps short link".
    @Test("the article agrees with the service's name")
    func articles() {
        #expect(throws: LocationError.needsServer(service: "Apple Maps short link")) { try LocationParser.parse("https://maps.apple/p/abc123") }
        #expect(LocationError.needsServer(service: "Apple Maps short link").description.hasPrefix("an Apple Maps short link names"))
        #expect(LocationError.needsServer(service: "Google Maps short link").description.hasPrefix("a Google Maps short link names"))
        #expect(LocationError.codedLink(service: "OpenStreetMap short link").description.hasPrefix("an OpenStreetMap short link is"))
    }

    /// Issue 40: these were refused as "needs a search".
    @Test(
        "coordinates inside a message, as people paste them",
        arguments: [
            "I'm at 43.738704, 7.428253", "Location: 43.738704, 7.428253", "Lat: 43.738704 Lon: 7.428253", "📍 43.738704, 7.428253",
            "Lon: 7.428253 Lat: 43.738704", "lng=7.428253 lat=43.738704", "My location is 43.738704,7.428253 - come quickly!",
            "I'm at -33.856784, 151.215297", "Position: 43.738704° N, 7.428253° E",
        ])
    func coordinatesInAMessage(_ text: String) throws {
        let location = try LocationParser.parse(text)
        #expect(location.source == .coordinates)
        // The numbers as written in the message, not as our own reader of typed coordinates gives them.
        let (latitude, longitude) = text.contains("-33") ? (-33.856784, 151.215297) : (43.738704, 7.428253)
        #expect(abs(location.coordinate.latitudeDegrees - latitude) < 1e-9, "\(text)")
        #expect(abs(location.coordinate.longitudeDegrees - longitude) < 1e-9, "\(text)")
    }

    @Test(
        "a message with one number, or more than two, or numbers that are no coordinates, still needs a search",
        arguments: ["I'm at 43.738704", "Bus 12 stops at 43.7387, 7.4282", "Room 12, floor 3", "between 1.5 and 2.5 km"])
    func notCoordinatesInAMessage(_ text: String) throws {
        #expect(throws: LocationError.needsSearch(text, nil)) { try LocationParser.parse(text) }
    }

    @Test("names are cleaned by the place-name rule")
    func names() throws {
        let controls = try LocationParser.parse("geo:0,0?q=1,2(Bad%1B[31mName%0A%E2%80%AEtext)")
        #expect(controls.name == "Bad [31mName text")
        let long = try LocationParser.parse("geo:0,0?q=1,2(" + String(repeating: "x", count: 300) + ")")
        #expect(long.name?.count == PlaceName.maximumLength)
        #expect(try PlaceName.validated(long.name) == long.name)
        let blank = try LocationParser.parse("geo:0,0?q=1,2(%20%0A)")
        #expect(blank.name == nil)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var text: String
        var error: LocationError
        var words: [String]
        var testDescription: String { String(text.prefix(70)) }
    }

    static let refusals: [Refusal] = [
        .init(text: "https://maps.app.goo.gl/abc123XYZ", error: .needsServer(service: "Google Maps short link"), words: ["nothing is fetched", "share the place's coordinates or its plus code"]),
        .init(text: "https://goo.gl/maps/Ab12", error: .needsServer(service: "Google Maps short link"), words: ["Google Maps short link"]),
        .init(
            text: "https://www.google.com/maps/place/?q=place_id:ChIJLU7jZClu5kcR4PcOOO6p3I0",
            error: .needsServer(service: "Google Maps place-id link"), words: ["place-id"]),
        .init(text: "https://maps.apple/p/AbCdEf12", error: .needsServer(service: "Apple Maps short link"), words: ["Apple Maps short link"]),
        .init(text: "https://maps.apple.com/?auid=9902154553127016510&lsp=9902", error: .needsServer(service: "Apple Maps place link"), words: ["server"]),
        .init(text: "https://www.openstreetmap.org/node/5013364098", error: .needsServer(service: "OpenStreetMap node link"), words: ["node"]),
        .init(text: "https://osm.org/go/0BOdUsOE-", error: .codedLink(service: "OpenStreetMap short link"), words: ["does not read"]),
        .init(text: "https://omaps.app/Umse5f0H8a/Eiffel_Tower", error: .codedLink(service: "Organic Maps link"), words: ["Organic Maps"]),
        .init(
            text: "https://www.google.com/maps/search/?api=1&query=Eiffel+Tower", error: .needsSearch("Eiffel Tower", .googleMaps),
            words: ["needs a search"]),
        .init(
            text: "https://www.google.com/maps/place/Eiffel+Tower", error: .needsSearch("Eiffel Tower", .googleMaps),
            words: ["'Eiffel Tower' without coordinates"]),
        .init(
            text: "https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2919064,17z",
            error: .needsSearch("Eiffel Tower", .googleMaps), words: ["needs a search"]),
        .init(text: "https://maps.apple.com/?q=bakery&sll=48.85,2.29", error: .needsSearch("bakery", .appleMaps), words: ["search"]),
        .init(text: "https://maps.apple.com/?daddr=1+Infinite+Loop,+Cupertino", error: .needsSearch("1 Infinite Loop, Cupertino", .appleMaps), words: ["search"]),
        .init(text: "geo:0,0?q=Eiffel+Tower", error: .needsSearch("Eiffel Tower", .geoURI), words: ["search"]),
        .init(text: "bakery on Rue Cler", error: .needsSearch("bakery on Rue Cler", nil), words: ["needs a search"]),
        .init(text: "https://www.openstreetmap.org/about", error: .noCoordinates(.openStreetMap), words: ["carries no coordinates"]),
        .init(text: "https://example.com/?lat=48.85&lon=2.29", error: .unknownLink(host: "example.com"), words: ["not a map link"]),
        .init(text: "https://www.google.com/search?q=eiffel", error: .unknownLink(host: "www.google.com"), words: ["not a map link"]),
        .init(text: "https://maps.google.com/?q=nan,2.29", error: .badCoordinate(.googleMaps, .invalidNumber("nan")), words: ["Google Maps link:", "not a plain decimal"]),
        .init(
            text: "https://www.openstreetmap.org/?mlat=91&mlon=200", error: .badCoordinate(.openStreetMap, .latitudeOutOfRange("91")),
            words: ["out of range"]),
        .init(text: "geo:48.8,2.3;crs=nad27", error: .coordinate(.unsupportedCoordinateSystem("nad27")), words: ["only wgs84"]),
        .init(text: "95 2", error: .coordinate(.looksSwapped(latitude: "95", longitude: "2")), words: ["latitude comes first"]),
        .init(text: " \n ", error: .empty, words: ["empty"]),
        .init(text: String(repeating: "x", count: 10_000), error: .tooLong(bytes: 10_000), words: ["at most 8192"]),
        .init(text: "V75V+8Q", error: .needsReference(code: "V75V+8Q"), words: ["--near"]),
    ]

    @Test("refusals, each with its reason", arguments: refusals)
    func refused(_ row: Refusal) {
        #expect(throws: row.error) { try LocationParser.parse(row.text) }
        for word in row.words { #expect("\(row.error)".contains(word), "\(row.error)") }
    }

    @Test("two different places in one text are refused; a pin beside a map centre is not a conflict")
    func conflicts() throws {
        let twoLinks = "https://maps.apple.com/?ll=48.858370,2.294481 https://waze.com/ul?ll=51.5007,-0.1246"
        #expect {
            try LocationParser.parse(twoLinks)
        } throws: { error in
            guard case .conflicting(let first, let second, let meters) = error as? LocationError else { return false }
            return first.source == .appleMaps && second.source == .waze && meters > 340_000 && "\(error)".contains("share one")
        }
        let twoPins = "https://www.google.com/maps/place/X/data=!3d48.8584!4d2.2945!3d51.5007!4d-0.1246"
        #expect(throws: LocationError.self) { try LocationParser.parse(twoPins) }
        let plusAndLink = "8FW4V75V+8Q https://waze.com/ul?ll=51.5007,-0.1246"
        #expect(throws: LocationError.self) { try LocationParser.parse(plusAndLink) }
        // The map looks elsewhere; the marker is the place.
        let pinAndCentre = try LocationParser.parse("https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=5/51.5/-0.12")
        #expect(pinAndCentre.coordinate.latitudeDegrees == 48.85837)
    }

    @Test("percent-escapes: decoded as UTF-8, a malformed one kept as written, a broken sequence as U+FFFD")
    func percentEscapes() {
        #expect(LinkParts.decoded("Caf%C3%A9+de+Flore", plusIsSpace: true) == "Café de Flore")
        #expect(LinkParts.decoded("a+b", plusIsSpace: false) == "a+b")
        #expect(LinkParts.decoded("100%", plusIsSpace: false) == "100%")
        #expect(LinkParts.decoded("%zz%4", plusIsSpace: false) == "%zz%4")
        #expect(LinkParts.decoded("%E2%80", plusIsSpace: false) == "\u{FFFD}")
        let parts = LinkParts("HTTPS://user@Maps.Apple.COM:443/place?Coordinate=1,2&name=A%26B#frag%20x")
        #expect(parts?.host == "maps.apple.com")
        #expect(parts?.value("coordinate") == "1,2" && parts?.value("name") == "A&B" && parts?.fragment == "frag x")
        #expect(LinkParts("ftp://maps.apple.com/?ll=1,2") == nil && LinkParts("https:///x") == nil)
    }

    @Test("bounded: at most 16 links, geo: URIs and plus codes are looked at, however many a text holds")
    func candidateLimit() throws {
        // 300 geo: URIs of one place, then one of another: far past the limit, the last is never
        // read, so there is no conflict to report.
        let same = Array(repeating: "geo:48.8584,2.2945", count: 300).joined(separator: " ")
        let text = same + " geo:51.5007,-0.1246"
        #expect(text.utf8.count <= LocationParser.maximumTextBytes)
        #expect(LocationParser.candidates(in: Substring(text)).count == LocationParser.maximumCandidates)
        #expect(try LocationParser.parse(text).coordinate.latitudeDegrees == 48.8584)
        // Within the limit, the other place is a conflict.
        #expect(throws: LocationError.self) { try LocationParser.parse("geo:48.8584,2.2945 geo:51.5007,-0.1246") }
    }
}
