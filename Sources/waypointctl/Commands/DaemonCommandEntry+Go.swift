import CommandLineSupport
import ControlProtocol
import Geodesy
import LocationIntake
import TextFormats

extension DaemonCommandEntry {
    /// `go`: guide to a coordinate, a recent destination or a named place.
    static let go = DaemonCommandEntry(
        name: "go",
        overview: """
              go PLACE [--name NAME]       guide to a place: coordinates, a map link, a plus code
              go --recent N                guide to recent destination N
              go NAME                      guide to a named place (or a recent one of that name)
              go --search QUERY | --result N   guide to a map search's best match, or result N
            """,
        help: """
            usage: waypointctl go LAT LON [--name NAME] [--force]
                   waypointctl go PLACE [--name NAME] [--near COORDINATE] [--force]
                   waypointctl go --recent N
                   waypointctl go NAME | go --place NAME
                   waypointctl go --search QUERY | go --result N

            Guide to a destination. The daemon confirms with the accepted pattern and from then
            on pulses the motor while the wearer faces the destination. PLACE is any form under
            Places in 'waypointctl --help'; quote it when it holds spaces or & (as links do):
              waypointctl go 48.8584 2.2945 --name "Eiffel Tower"
              waypointctl go "48°51'30.2\\"N 2°17'40.2\\"E"
              waypointctl go 'https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower'
              waypointctl go V75V+8Q

            --name NAME    what to call it in status and recent (default: the name the link or
                           geo: label carries): at most \(TextFormats.PlaceName.maximumLength) characters,
                           spaces around it trimmed, no control characters
            --near COORDINATE
                           where a short plus code is completed (default: the current fix)
            A latitude past ±90° whose swap is in range is refused with the order spelled out;
            so is a destination over 1000 km away whose swap is within 100 km of the current
            fix (exit 65, nothing set, the swapped one suggested).
            --force        set it all the same
            --recent N     guide to destination N of 'waypointctl recent' (1 is the most recent)
            --place NAME   guide to the place of 'waypointctl place list' called NAME, in any
                           case, else the recent destination of that name; a near miss gets a
                           suggestion. A bare NAME (one that no coordinate reading explains) does
                           the same: waypointctl go bakery
            --search QUERY guide to the best match of 'waypointctl search QUERY' near the fix,
                           saying which it chose and how far; its name names the destination
            --result N     guide to result N of the last 'waypointctl search' (kept for this user)
            --walk         plan a walk over the streets (with the walking routes 'waypointd map
                           import' built) and guide along it corner by corner: the motor points
                           at the next corner, a corner-ahead pattern (two quick taps) plays
                           about 15 m before each turn, the walk is planned again when you
                           stray, and the last leg goes straight to the door
            --straight     guide straight to the destination, as the crow flies
            Without either, the daemon's 'walk' setting decides (auto: a walk when routes were
            imported and the destination is 150 m or more away).
            Guiding somewhere drops a route being followed.
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--name", "--recent", "--place", "--near", "--search", "--result"],
        flagOptions: ["--force", "--walk", "--straight"],
        parse: { arguments, now throws(UsageError) in
            try parseGo(arguments)
        })

    private static func parseGo(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let name = "go"
        if arguments.has("--walk"), arguments.has("--straight") { throw UsageError("--walk or --straight, not both", command: name) }
        let walk: Bool? = arguments.has("--walk") ? true : arguments.has("--straight") ? false : nil
        let search = arguments.value("--search")
        let result = arguments.value("--result")
        if search != nil || result != nil {
            guard arguments.positionals.isEmpty, search == nil || result == nil, arguments.value("--name") == nil,
                arguments.value("--recent") == nil, arguments.value("--place") == nil, arguments.value("--near") == nil,
                !arguments.has("--force")
            else {
                throw UsageError("--search QUERY and --result N go alone (one of them, and nothing else)", command: name)
            }
            if let search {
                guard !search.isEmpty, search.count <= ControlRequest.maximumQueryCharacters else {
                    throw UsageError("--search needs 1 to \(ControlRequest.maximumQueryCharacters) characters", command: name)
                }
                return .goSearch(search, walk: walk)
            }
            guard let number = result.flatMap(Int.init), (1...ControlRequest.maximumSearchResults).contains(number) else {
                throw UsageError("--result '\(result ?? "")' is not a number from 1 to \(ControlRequest.maximumSearchResults)", command: name)
            }
            return .goResult(number, walk: walk)
        }
        if let place = arguments.value("--place") {
            guard arguments.positionals.isEmpty, walk == nil, arguments.value("--name") == nil, arguments.value("--recent") == nil,
                !arguments.has("--force"), arguments.value("--near") == nil
            else {
                throw UsageError(
                    "--place NAME takes no coordinates, no --name, no --recent, no --near, no --force and no --walk", command: name)
            }
            return .goPlace(try placeName(place, what: "--place", command: name))
        }
        if let recentText = arguments.value("--recent") {
            guard arguments.positionals.isEmpty, arguments.value("--name") == nil, !arguments.has("--force"),
                arguments.value("--near") == nil, walk == nil
            else {
                throw UsageError("--recent N takes no coordinates, no --name, no --near, no --force and no --walk", command: name)
            }
            guard let index = Int(recentText), (1...ControlRequest.recentCount).contains(index) else {
                throw UsageError(
                    "--recent '\(recentText)' is not a number from 1 to \(ControlRequest.recentCount) "
                        + "(see 'waypointctl recent')",
                    command: name)
            }
            return .goRecent(index)
        }
        let positionals = arguments.positionals
        guard !positionals.isEmpty else {
            throw UsageError(
                "go needs a destination (LAT LON, a place such as geo:48.8584,2.2945 or a map link, or --recent N)",
                command: name)
        }
        let text = positionals.joined(separator: " ")
        let given: String?
        do throws(PlaceNameError) {
            given = try PlaceName.validated(arguments.value("--name"))
        } catch {
            throw UsageError("--name: \(error)", command: name)
        }
        let force = arguments.has("--force")
        let near = try PlaceText.near(arguments, command: name)
        // Words no place reading explains: a saved place's name ("go Bakery", "go Gate 3").
        if given == nil, near == nil, case .failure(.needsSearch(_, nil)) = Result(catching: { () throws(LocationError) in
            try LocationParser.parse(text)
        }) {
            return .goPlace(try placeName(text, what: "the place's name", command: name))
        }
        switch try PlaceText.read(text, near: near, fixMayHelp: true, command: name) {
        case .location(let location): return .go(location, name: given, force: force, walk: walk)
        case .needsFix(let text): return .completing(text, then: .go(name: given, force: force, walk: walk))
        }
    }
}
