import Foundation
import Testing
import TestSupport

/// What a phone shares, typed into the real `waypointctl` against the real `waypointd
/// --simulate` (issue 26): go, place add, bearing and locate with a Google Maps link, an Apple
/// Maps link, a `geo:` label and a short plus code completed near the daemon's fix. The links
/// are shaped as the services' Share buttons give them; the plus codes' full forms and centres
/// come from the reference implementation (PyPI `openlocationcode`), not from our decoder.
@Suite("Places from shared links, against the real daemon", .timeLimit(.minutes(10)))
struct PlaceTextEndToEndTests {
    /// V74W+RR near the simulated start is 8FW4V74W+RR, centred on 48.8570625, 2.2970625.
    static let shortCode = "V74W+RR"
    static let shortCodeCentre = (latitude: 48.8570625, longitude: 2.2970625)

    @Test("go, place add, bearing and locate take a Google link, an Apple link, a geo: label and a short plus code")
    func sharedForms() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        defer { _ = daemon.stop() }
        func run(_ arguments: String...) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, ["--socket", daemon.socket] + arguments)
        }
        let client = try daemon.client()
        func destination() -> [String: Any]? { client.request(#"{"cmd":"status"}"#)?.object("destination") }
        // A short code is completed near the fix: wait for one.
        let fixed = try await daemon.waitForStatus(client, seconds: 10) { $0.object("fix")?["lat"] is Double }
        #expect(fixed != nil, "no fix: \(daemon.log)")

        // Google: the !3d!4d pin, not the @ camera 200 m west; the name from the path.
        var output = try run(
            "go", "https://www.google.com/maps/place/Tour+Eiffel/@48.8583,2.2960,17z/data=!3m1!4b1!4m6!3m5!8m2!3d48.8583!4d2.2986")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("destination set: Tour Eiffel, "), "\(output.standardOutput)")
        var place = try #require(destination())
        #expect(place["lat"] as? Double == 48.8583 && place["lon"] as? Double == 2.2986 && place["name"] as? String == "Tour Eiffel")

        // Apple, inside a shared message, and --name wins over the link's name.
        output = try run("go", "Meet me here: https://maps.apple.com/?ll=48.8570,2.2970&q=Caf%C3%A9 thanks", "--name", "coffee")
        #expect(output.status == 0, "\(output.standardError)")
        place = try #require(destination())
        #expect(place["lat"] as? Double == 48.857 && place["lon"] as? Double == 2.297 && place["name"] as? String == "coffee")

        // Android's geo: label, spaces and all.
        output = try run("go", "geo:0,0?q=48.8560,2.2990(Gate 3)")
        #expect(output.status == 0, "\(output.standardError)")
        place = try #require(destination())
        #expect(place["lat"] as? Double == 48.856 && place["name"] as? String == "Gate 3")

        // A short plus code, completed near the daemon's fix.
        output = try run("go", Self.shortCode)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("8FW4V74W+RR"), "\(output.standardError)")
        place = try #require(destination())
        #expect(abs((place["lat"] as? Double ?? 0) - Self.shortCodeCentre.latitude) < 1e-9)
        #expect(abs((place["lon"] as? Double ?? 0) - Self.shortCodeCentre.longitude) < 1e-9)

        // A short link is refused before anything is sent: the destination stays.
        output = try run("go", "https://maps.app.goo.gl/AbCdEf123")
        #expect(output.status == 64)
        #expect(output.standardError.contains("nothing is fetched"), "\(output.standardError)")
        #expect(abs((destination()?["lat"] as? Double ?? 0) - Self.shortCodeCentre.latitude) < 1e-9)

        // place add: an Apple link and a short code; both land in the daemon's list.
        output = try run("place", "add", "Bakery", "https://maps.apple.com/place?coordinate=48.8565,2.2975&name=Boulangerie")
        #expect(output.status == 0, "\(output.standardError)")
        output = try run("place", "add", "Kiosk", Self.shortCode)
        #expect(output.status == 0, "\(output.standardError)")
        let places = try #require(client.request(#"{"cmd":"place","action":"list"}"#)?["places"] as? [[String: Any]])
        let bakery = try #require(places.first { $0["name"] as? String == "Bakery" })
        #expect(bakery["lat"] as? Double == 48.8565 && bakery["lon"] as? Double == 2.2975)
        let kiosk = try #require(places.first { $0["name"] as? String == "Kiosk" })
        #expect(abs((kiosk["lat"] as? Double ?? 0) - Self.shortCodeCentre.latitude) < 1e-9)

        // bearing: a geo: label to a Google camera link; a short code needs --near there.
        output = try run("bearing", "geo:0,0?q=48.8560,2.2990(A)", "https://www.google.com/maps/@48.8583,2.2986,17z")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("distance         257 m"), "\(output.standardOutput)")
        output = try run("bearing", Self.shortCode, "48.8583 2.2986")
        #expect(output.status == 64 && output.standardError.contains("--near"), "\(output.standardError)")
        output = try run("bearing", Self.shortCode, "48.8583 2.2986", "--near", "48.8556,2.2986")
        #expect(output.status == 0, "\(output.standardError)")

        // locate completes a short code near the daemon's fix when no --near is given.
        output = try run("locate", Self.shortCode, "--json")
        #expect(output.status == 0, "\(output.standardError)")
        let located = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(located["source"] as? String == "short-plus-code" && located["lat"] as? Double == Self.shortCodeCentre.latitude)
    }
}
