import ClientSupport
import ControlProtocol
import Testing

/// The sentences the button's answers are spoken in (the daemon's voice and the companion's
/// live region), written out here by hand: units in words, directions as clock hours.
@Suite("Presentation: the sentences said aloud", .timeLimit(.minutes(5)))
struct SpokenSentenceTests {
    static let bakery = DestinationReport(latitude: 43.73, longitude: 7.42, name: "Bakery")

    static func guiding(meters: Double, errorDegrees: Double?, route: RouteReport? = nil) -> StatusReport {
        StatusReport(
            state: "guiding", destination: bakery, bearingDegrees: 90, distanceMeters: meters, errorDegrees: errorDegrees, route: route)
    }

    @Test(arguments: [
        (3.0, "5 metres"), (36, "35 metres"), (240, "240 metres"), (994, "990 metres"), (1_230, "1.2 kilometres"),
    ])
    func distancesReadAsWords(meters: Double, expected: String) {
        #expect(Presentation.spokenDistance(meters: meters) == expected)
    }

    @Test func whereIAmWithAnAddressAndTheDestination() {
        let place = WhereReport(
            address: "Rue Grimaldi 12", street: "Rue Grimaldi", housenumber: "12", place: "Monaco", distanceMeters: 8,
            bearingDegrees: 10, latitude: 43.73, longitude: 7.42)
        #expect(
            Presentation.spokenWhere(place, status: Self.guiding(meters: 243, errorDegrees: 58))
                == "At Rue Grimaldi 12, Monaco. Bakery is 240 metres away, at 2 o'clock.")
    }

    @Test func insideABuildingOnAStreetWithoutANumber() {
        let place = WhereReport(
            address: nil, street: "Avenue de la Costa", housenumber: nil, place: "Monaco", distanceMeters: 20, bearingDegrees: 0,
            latitude: 43.7, longitude: 7.4, inside: "Casino de Monte-Carlo", insideKind: "casino")
        #expect(
            Presentation.spokenWhere(place, status: StatusReport(state: "idle"))
                == "In Casino de Monte-Carlo, on Avenue de la Costa, Monaco. No destination set.")
    }

    @Test func noStreetOnTheMapAndNoMapAtAll() {
        let nothing = WhereReport(
            address: nil, street: nil, housenumber: nil, place: nil, distanceMeters: nil, bearingDegrees: nil, latitude: nil,
            longitude: nil)
        let status = Self.guiding(meters: 1_500, errorDegrees: -90)
        #expect(Presentation.spokenWhere(nothing, status: status) == "No street near here on the map. Bakery is 1.5 kilometres away, at 9 o'clock.")
        #expect(Presentation.spokenWhere(nil, status: status) == "Bakery is 1.5 kilometres away, at 9 o'clock.")
    }

    @Test func withoutAHeadingTheDirectionIsACompassPoint() {
        #expect(Presentation.spokenDestination(Self.guiding(meters: 120, errorDegrees: nil)) == "Bakery is 120 metres away, to the east.")
    }

    @Test func arrivedAndNoFix() {
        var arrived = Self.guiding(meters: 4, errorDegrees: 0)
        arrived.state = "arrived"
        #expect(Presentation.spokenDestination(arrived) == "You have arrived at Bakery.")
        let lost = StatusReport(state: "no-fix", destination: Self.bakery)
        #expect(Presentation.spokenDestination(lost) == "Bakery: no position yet.")
    }

    @Test func theNextWaypointOfARoute() {
        let route = RouteReport(
            name: "Tour", waypoint: 3, count: 7, target: DestinationReport(latitude: 43.7, longitude: 7.4, name: "Fountain"),
            remainingMeters: 900, isFinished: false)
        #expect(
            Presentation.spokenNext(Self.guiding(meters: 118, errorDegrees: -25, route: route))
                == "Waypoint 3 of 7, Fountain, 120 metres away, at 11 o'clock.")
    }

    @Test func theNextTurnOfAWalkWithItsUnitsInWords() {
        let turn = TurnReport(
            latitude: 43.7, longitude: 7.4, turnDegrees: -90, street: "Rue Grimaldi", distanceMeters: 120,
            instruction: "in 120 m turn left onto Rue Grimaldi")
        let walk = WalkReport(profile: "foot", next: turn, remainingMeters: 400, replans: 0, offPathMeters: nil, problem: nil)
        let route = RouteReport(name: nil, waypoint: 1, count: 5, target: Self.bakery, remainingMeters: 400, isFinished: false, walk: walk)
        let status = Self.guiding(meters: 400, errorDegrees: 2, route: route)
        #expect(Presentation.spokenNext(status) == "Next, in 120 metres turn left onto Rue Grimaldi.")
        #expect(
            Presentation.spokenDestination(status)
                == "Bakery is 400 metres away, at 12 o'clock. Next, in 120 metres turn left onto Rue Grimaldi.")
    }

    @Test func pauseResumeAndAMarkedPlace() {
        #expect(Presentation.spokenPause(muted: true) == "Guidance paused. Hold again to resume.")
        #expect(Presentation.spokenPause(muted: false) == "Guidance resumed.")
        let mark = PlaceMarkReport(place: DestinationReport(latitude: 43.7, longitude: 7.4, name: "Mark 14:05:09"), errorMeters: 6.2, fixes: 3)
        #expect(Presentation.spokenMark(mark) == "Marked this place as Mark 14:05:09, within 10 metres.", "an error of 6.2 m is within 10 m, not 5")
    }
}
